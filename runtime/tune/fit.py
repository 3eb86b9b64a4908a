"""Texel's method: fit evaluation parameters to game results by logistic regression.

Each sampled position i has features x_i (features.py), a fixed part c_i and the
result y_i of its game from White's view (1, 1/2, 0).  With the evaluation
e_i = x_i . theta + c_i (in pawns) the predicted score is

    s_i = 1 / (1 + 10 ** (-K e_i / 4))          (K e / 400 with e in centipawns)

First K is fitted with the current parameters (how sharply evaluations turn into
results in these games), then theta minimises

    mean_i (s_i - y_i) ** 2  +  (1/n) sum_j alpha_j (theta_j - theta0_j) ** 2

The second term is a ridge pulling each parameter toward its current value: worth
`alpha` positions of evidence, so a square seen in few positions keeps its derived
bonus instead of chasing noise.  Values are kept non-negative.  scipy's L-BFGS-B does
the minimising with the exact gradient.
"""

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize, sparse

LN10_4 = math.log(10) / 4
TEACHER_CLIP_PAWNS = 30.0        # a mate's or a won ending's score counts as this


@dataclass
class Data:
    """Labelled positions: X (sparse, n x parameters), c and y (length n)."""

    X: object
    c: np.ndarray
    y: np.ndarray

    @classmethod
    def from_rows(cls, rows, size):
        """rows: (slots, counts, c in pawns, y, ...) per position."""
        indptr, indices, counts = [0], [], []
        for slots, row_counts, *_ in rows:
            indices += slots
            counts += row_counts
            indptr.append(len(indices))
        X = sparse.csr_matrix((np.asarray(counts, float), np.asarray(indices, int), indptr),
                              shape=(len(rows), size))
        X.sum_duplicates()
        return cls(X, np.array([r[2] for r in rows], float), np.array([r[3] for r in rows], float))

    def __len__(self):
        return self.X.shape[0]

    def subset(self, mask):
        return Data(self.X[mask], self.c[mask], self.y[mask])

    def with_intercept(self):
        """The same positions with one more feature, 1 in every position: a constant
        edge of White's that the fit may find (games whose armies differ have one),
        so that it is not taken out on the values of the pieces only one side has."""
        ones = sparse.csr_matrix(np.ones((len(self), 1)))
        return Data(sparse.hstack([self.X, ones], format="csr"), self.c, self.y)


def predict(data, theta, k):
    evaluation = data.X @ theta + data.c
    return 1.0 / (1.0 + np.power(10.0, np.clip(-k * evaluation / 4, -30, 30)))


def error(data, theta, k):
    """Mean squared error of predicted scores against results."""
    return float(np.mean((predict(data, theta, k) - data.y) ** 2))


def fit_k(data, theta):
    """The K that best turns the current evaluations into results."""
    found = optimize.minimize_scalar(lambda k: error(data, theta, k), bounds=(0.01, 10.0),
                                     method="bounded", options={"xatol": 1e-4})
    return float(found.x)


def blend_with_teacher(y, teacher, weight):
    """Targets that mix each position's result with a teacher's score of it.

    `teacher` holds a stronger engine's evaluation of each position in pawns, White's
    view (NaN where it gave none: those keep their result).  The teacher's scores are
    first turned into expected results by the same logistic curve, its own K fitted on
    these games; the target is then (1 - weight) * result + weight * expected.  A
    result says who won the game, once for all of its positions; a deep search's
    score says who stands better here, with far less noise.  Returns (targets, K of
    the teacher, positions with a score)."""
    scored = ~np.isnan(teacher)
    if not scored.any() or weight == 0:
        return y, None, int(scored.sum())
    pawns = np.clip(teacher[scored], -TEACHER_CLIP_PAWNS, TEACHER_CLIP_PAWNS)
    none = sparse.csr_matrix((int(scored.sum()), 0))
    k_teacher = fit_k(Data(none, pawns, y[scored]), np.zeros(0))
    expected = 1.0 / (1.0 + np.power(10.0, -k_teacher * pawns / 4))
    targets = y.copy()
    targets[scored] = (1 - weight) * y[scored] + weight * expected
    return targets, k_teacher, int(scored.sum())


def fit(data, theta0, k, alpha, lower=None, free=None, max_iterations=500):
    """theta minimising the regularised error; alpha, lower: per parameter arrays
    (ridge weights in positions, lower bounds or -inf); free: a mask of the parameters
    to fit (the others keep theta0's values).  Returns (theta, iterations)."""
    free = np.ones(len(theta0), bool) if free is None else np.asarray(free, bool)
    n = max(len(data), 1)
    X = data.X[:, free]
    c = data.c + data.X[:, ~free] @ theta0[~free]
    theta_free, iterations = _minimise(Data(X, c, data.y), theta0[free], k, alpha[free],
                                       None if lower is None else lower[free], n,
                                       max_iterations)
    theta = theta0.copy()
    theta[free] = theta_free
    return theta, iterations


def _minimise(data, theta0, k, alpha, lower, n, max_iterations):
    XT = data.X.T.tocsr()

    def loss_and_gradient(theta):
        s = predict(data, theta, k)
        residual = s - data.y
        slope = s * (1 - s) * k * LN10_4
        drift = theta - theta0
        loss = np.mean(residual ** 2) + np.sum(alpha * drift ** 2) / n
        gradient = (2 / n) * (XT @ (residual * slope)) + (2 / n) * alpha * drift
        return loss, gradient

    bounds = None
    if lower is not None:
        bounds = [(lo if np.isfinite(lo) else None, None) for lo in lower]
    found = optimize.minimize(loss_and_gradient, theta0, jac=True, method="L-BFGS-B",
                              bounds=bounds, options={"maxiter": max_iterations})
    return found.x, int(found.nit)
