"""The table host on the network: the game service behind the link, answering stations'
money reports, operator and recall requests, and counting wrong pairing codes."""
