"""What one table's result is worth to each seat, by format: pure functions, no Django.

Every result is scored, however the match ended (docs/tournaments.md, "When a match does
not end normally"):

- A finished match gives each seat its points by the format. Seats that forfeited are
  ranked last by the match service; a seat the result does not mention counts last too.
- A match ended by forfeits carries no game figures (no scores, no details). Placement
  bonuses still apply; figures a format needs are taken as follows: Dobble card counts
  count 0 and in hot potato each forfeiting player loses one round (-5), in
  formats/dobble_series.py `points_by_seat`; Dudab Buba totals come from the rounds
  played, scaled to a whole game, and a forfeiting player gets the worst total at the
  table, at least FORFEIT_DUDAB_ROUND a round (`dudab` below).
- A cancelled match (aborted, no result) is unplayed: nobody gains or loses, every seat
  gets UNPLAYED, which counts in no total and no tiebreak and does not make the seats
  "met" for pairing.
"""

from __future__ import annotations

from games.dudab.scoring import totals as dudab_totals

# A Score's kind: how the points were earned (FIDE tells these apart for tiebreaks).
PLAYED = "played"
WALKOVER = "walkover"  # the table ended because others forfeited: points without a full game
FORFEITED = "forfeited"  # this seat forfeited (left, or its clock and grace ran out)
BYE = "bye"  # no table this round: a Swiss odd field's (1), a round robin's sitting out (0) or forfeit win (1)
UNPLAYED = "unplayed"  # cancelled match, withdrawn or not yet checked in: counts nowhere
LATE = "late"  # a round a late entrant missed: the organizer's zero or half point (Tournament.late_entry_points)

FORFEIT_DUDAB_ROUND = 30  # worse than almost every real Dudab Buba round


def full_ranking(result: dict | None, players: int) -> list[list[int]]:
    """The result's ranking with every seat in it: seats it leaves out share the last place."""
    ranking = [list(group) for group in (result or {}).get("ranking", []) if group]
    named = {seat for group in ranking for seat in group}
    missing = [seat for seat in range(players) if seat not in named]
    return ranking + ([missing] if missing else [])


def share_points(ranking: list[list[int]]) -> dict[int, float]:
    """A seat's share of the table: (opponents beaten + half the opponents tied) / opponents.

    1 for a win and 0.5 for a draw at two seats, as in chess; tables of any size give
    points on the same 0..1 scale, so Swiss standings stay comparable across table sizes.
    """
    seats = [seat for group in ranking for seat in group]
    opponents = len(seats) - 1
    points, below = {}, len(seats)
    for group in ranking:
        below -= len(group)
        for seat in group:
            points[seat] = (below + 0.5 * (len(group) - 1)) / opponents if opponents else 1.0
    return points


def counted_result(tournament, result: dict | None) -> dict | None:
    """A table's result as the tournament counts it. A seat whose player made no move of their
    own (the match service's "idle", `Match.idle_seats`: every move the clock's) forfeited,
    ranked last: no win, draw or bonus for it, in every format, and the game
    counts for the others as a player who does not move loses on Lichess. Where it forfeits
    no-shows, so does a seat whose player never came (the match service's "absent"), even when
    the clock played the seat to the end of a short game before the no-show time came."""
    if result is None:
        return None
    extra = set(result.get("idle", [])) - set(result.get("forfeited", []))
    if tournament.no_show_minutes:
        extra |= set(result.get("absent", [])) - set(result.get("forfeited", []))
    if not extra:
        return result
    ranking = [[seat for seat in group if seat not in extra] for group in result["ranking"]]
    ranking = [group for group in ranking if group] + [sorted(extra)]
    return {**result, "ranking": ranking, "forfeited": [*result.get("forfeited", []), *sorted(extra)]}


def kinds(result: dict | None, players: int) -> dict[int, str]:
    """How each seat's points were earned. A resignation is a game played and lost, as at a
    club: the resigning seat and the others played it; only leaving otherwise forfeits. Where
    forfeits cut the game short, or fewer than two seats took part (the others forfeited without
    coming or without a move of their own, however far the clock played them), the others won
    by forfeit: FIDE counts a forfeit as no game played, for either side."""
    if result is None:
        return dict.fromkeys(range(players), UNPLAYED)
    forfeited = set(result.get("forfeited", [])) - set(result.get("resigned", []))
    took_no_part = forfeited & (set(result.get("absent", [])) | set(result.get("idle", [])))
    cut_short = bool(forfeited) and (not result.get("scores") or players - len(took_no_part) < 2)
    return {seat: FORFEITED if seat in forfeited else WALKOVER if cut_short else PLAYED for seat in range(players)}


def everyone_forfeited(kinds) -> bool:
    """Every seat's points forfeited: at a corrected table, the organizer's 0 for everyone (a double
    forfeit, which FIDE scores as lost by both and no game played by either)."""
    kinds = list(kinds)
    return bool(kinds) and all(kind == FORFEITED for kind in kinds)


def share_of_opponents_beaten(result: dict | None, players: int) -> dict[int, float]:
    """Each seat's `share_points`, as every format but the series scores a table (formats/base.py
    `seat_points`); nothing to anyone for a cancelled match."""
    if result is None:
        return dict.fromkeys(range(players), 0.0)
    return share_points(full_ranking(result, players))


def dudab(result: dict | None, players: int, round_scores: list[list[int]]) -> dict[int, float] | None:
    """Each seat's game total (lower is better). Seats left out are unplayed: every seat of a
    cancelled game (None), and the players who stayed when forfeits ended it before any round.
    A forfeiting player gets the worst total at the table, at least FORFEIT_DUDAB_ROUND a round,
    also where the computer played their seat to the end (leaving must never pay)."""
    if result is None:
        return None
    scores = result.get("scores") or {}
    if all(str(seat) in scores for seat in range(players)):
        totals = {seat: float(scores[str(seat)]) for seat in range(players)}
        worst = max([FORFEIT_DUDAB_ROUND * players, *totals.values()])
        return totals | dict.fromkeys(result.get("forfeited", []), float(worst))
    scaled = {}
    if round_scores:
        summed = dudab_totals(round_scores, players)["totals"]
        scaled = {seat: summed[seat] * players / len(round_scores) for seat in range(players)}
    worst = max([FORFEIT_DUDAB_ROUND * players, *scaled.values()])
    totals = {seat: float(total) for seat, total in scaled.items()}
    totals.update(dict.fromkeys(result.get("forfeited", []), float(worst)))
    return totals or None
