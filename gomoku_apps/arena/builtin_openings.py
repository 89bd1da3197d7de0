"""The built-in opening book, written by scripts/build_opening_book.py.

For each board size: opening -> black's score in the self-play check.
"""

BOOK_METHOD = (
    "the 26 classic three-stone openings, each played 100 times in self-"
    "play by 'heuristic' (seed 0); kept when black's score is within [0.35,"
    " 0.65] or among the 12 closest to 0.5"
)
BUILTIN_BOOK: dict[int, dict[str, float]] = {
    9: {
        "e5 e6 c7": 0.500,
        "e5 e6 d7": 0.500,
        "e5 e6 c6": 0.500,
        "e5 e6 c4": 0.500,
        "e5 e6 d4": 0.500,
        "e5 e6 c3": 0.630,
        "e5 e6 e3": 0.465,
        "e5 f6 c7": 0.505,
        "e5 f6 d7": 0.460,
        "e5 f6 f7": 0.500,
        "e5 f6 g7": 0.500,
        "e5 f6 c6": 0.625,
        "e5 f6 d6": 0.500,
        "e5 f6 e6": 0.500,
        "e5 f6 c5": 0.500,
        "e5 f6 c4": 0.555,
        "e5 f6 d4": 0.500,
        "e5 f6 c3": 0.630,
    },
    13: {
        "g7 g8 e9": 0.500,
        "g7 g8 e8": 0.730,
        "g7 g8 f8": 0.485,
        "g7 g8 f7": 0.255,
        "g7 g8 f6": 0.500,
        "g7 g8 f5": 0.680,
        "g7 g8 g5": 0.660,
        "g7 h8 f9": 0.540,
        "g7 h8 e8": 0.705,
        "g7 h8 g8": 0.500,
        "g7 h8 e7": 0.590,
        "g7 h8 f7": 0.570,
    },
    15: {
        "h8 h9 f10": 0.360,
        "h8 h9 g10": 0.650,
        "h8 h9 f9": 0.520,
        "h8 h9 g9": 0.370,
        "h8 h9 f8": 0.340,
        "h8 h9 g7": 0.305,
        "h8 h9 g6": 0.650,
        "h8 h9 h6": 0.475,
        "h8 i9 g9": 0.560,
        "h8 i9 g8": 0.585,
        "h8 i9 g7": 0.530,
        "h8 i9 f6": 0.310,
    },
    19: {
        "j10 j11 h12": 0.720,
        "j10 j11 i12": 0.520,
        "j10 j11 h11": 0.520,
        "j10 j11 h10": 0.260,
        "j10 j11 h9": 0.755,
        "j10 j11 i8": 0.565,
        "j10 j11 j8": 0.410,
        "j10 k11 i12": 0.700,
        "j10 k11 k12": 0.610,
        "j10 k11 i11": 0.300,
        "j10 k11 i10": 0.645,
        "j10 k11 h8": 0.260,
    },
}
