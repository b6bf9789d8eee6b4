"""The exact-optimal two-player player: plays the solved policy
(``pagadores_env.pagadores.solver``).

It reads the decision from the observation vector alone (cards, role, throws used, throw
limit, current strength and the insteker's score, via ``observation.decode``) and looks the
action up in the cached solution, solving it on first use (well under a second).
"""

from __future__ import annotations

from pagadores_env.core.policies import register_policy
from pagadores_env.pagadores.rules import MAX_CARDS
from pagadores_env.pagadores.solver import TablePolicy, load_or_solve


class OptimalPolicy(TablePolicy):
    """Optimal play at two-player tables with up to ``cards`` cards a side. Other tables are
    refused by ``check_table`` when the policy is seated (``policies.check_tables``), and
    ``act`` raises ``ValueError`` for their observations."""

    name = "optimal"

    def __init__(self, cards: int = MAX_CARDS, seed: int | None = None) -> None:
        self.solution = load_or_solve(cards)
        super().__init__(self.solution.policy_table(), seed)

    def fingerprint(self) -> str:
        """Its play is the solver's, from the code alone (``solver.results_cache``)."""
        return ""


register_policy("optimal", OptimalPolicy)
