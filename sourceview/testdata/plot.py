import math


def norm(xs):
    """Euclidean norm."""
    return math.sqrt(sum(x * x for x in xs))
