"""Paytable administration: drafts and the operator's editor, exact-RTP proofs and their
records, the hold report, the exact maths in a child interpreter."""
