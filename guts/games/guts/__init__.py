"""Continuous Guts (paper §3-§5): payoffs, strategy spaces, stage games, the 1 v. N coalition
game, m v. n teams, the continuum limit, large N, n-player fictitious play and the guts-bot."""
