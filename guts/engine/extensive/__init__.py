"""Extensive-form games: poker-shaped public trees over private types, sequence-form LP,
CFR+ / DCFR, fictitious play, best response, exploitability and NashConv."""
