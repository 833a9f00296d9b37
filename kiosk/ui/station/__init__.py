"""A player station's screens and the dealer display: the cabinet's screens over a station
of a shared table, its operator pages answered by the host, the seats strip, and the
dealer display fed by the host."""
