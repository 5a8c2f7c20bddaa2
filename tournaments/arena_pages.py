"""An arena's pages: the arena itself (join, pause, rejoin, the rules in words), its live
leaderboard (a fragment the page fetches again every few seconds: static/js/arena.js), and
berserk from the table. Thin views over tournaments/formats/arena.py and services.enter."""

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from games.matches.errors import MatchError
from games.matches.models import Match
from tournaments import arena, scoring, services
from tournaments.formats import arena as arena_format
from tournaments.models import Table, Tournament

REFRESH_SECONDS = 3  # how often an open arena page asks for the leaderboard again


@dataclass(frozen=True)
class Mark:
    """One game on a player's sheet: its points and how they came."""

    points: int
    outcome: str
    doubled: bool = False
    berserk: bool = False

    @property
    def words(self) -> str:
        """ "won on a streak (double), berserk: 5 points"."""
        how = [self.outcome]
        if self.doubled:
            how.append("on a streak (double)")
        if self.berserk:
            how.append("berserk")
        return f"{', '.join(how)}: {self.points} point{'' if self.points == 1 else 's'}"


@dataclass
class Row:
    player: str
    bot: bool
    points: int = 0
    marks: list[Mark] = field(default_factory=list)
    on_streak: bool = False
    now: str = ""  # "playing", "paused", "waiting for a table" ("free to fill a table": a house bot)
    place: int = 0

    @property
    def wins(self) -> int:
        return sum(mark.outcome == arena.WON for mark in self.marks)

    @property
    def no_move_games(self) -> list[int]:
        """The games (1, 2, ... in order played) the player came to and left to the clock: said in
        words beside the sheet, not only in a mark's tooltip (an arbiter missed them)."""
        return [number for number, mark in enumerate(self.marks, 1) if mark.outcome == arena.NO_MOVE]


def leaderboard(tournament: Tournament) -> list[Row]:
    """Every entrant, most points first, then most games won; equal on both share a place."""
    entries = list(tournament.entries.select_related("user"))
    rows = {e.pk: Row(e.user.username, bool(e.house_bot)) for e in entries}
    berserk, idle = {}, {}
    for table_id, seats, seating, result in tournament.tables.values_list("pk", "berserk", "seating", "match__result"):
        berserk[table_id] = seats
        idle[table_id] = {seating[n] for n in (result or {}).get("idle", [])}
    streak = {}
    scores = tournament.scores.order_by("round").values_list("entry_id", "table_id", "points", "kind", "streak")
    for entry_id, table_id, points, kind, after in scores:
        row, before = rows[entry_id], streak.get(entry_id, 0)
        moved = entry_id not in idle.get(table_id, ())
        row.marks.append(mark(int(points), kind, before, after, entry_id in berserk.get(table_id, []), moved))
        row.points += int(points)
        streak[entry_id] = after
    playing = at_tables(tournament)
    live = tournament.status == Tournament.Status.RUNNING
    for entry in entries:
        row = rows[entry.pk]
        row.on_streak = streak.get(entry.pk, 0) >= arena.STREAK_START
        if entry.pk in playing:
            row.now = "playing"
        elif entry.paused:
            row.now = "paused"
        elif live and entry.waiting_since is not None:
            row.now = "free to fill a table" if entry.house_bot else "waiting for a table"
    ranked = sorted(rows.values(), key=lambda row: (-row.points, -row.wins, row.player.lower()))
    place = arena_format.places({id(row): (row.points, row.wins) for row in ranked})
    for row in ranked:
        row.place = place[id(row)]
    return ranked


def mark(points: int, kind: str, before: int, after: int, berserk: bool, moved: bool = True) -> Mark:
    """A Score read back: a game counted won keeps a streak going, and doubles after two wins; a
    forfeit is a game the player never came to, or one they made no move of their own in."""
    if kind == scoring.UNPLAYED:
        return Mark(0, arena.NO_GAME)
    if kind == scoring.FORFEITED:
        return Mark(0, arena.ABSENT if moved else arena.NO_MOVE)
    outcome = arena.WON if after > 0 else arena.DREW if points else arena.LOST
    return Mark(points, outcome, before >= arena.STREAK_START and points > 0, berserk)


def at_tables(tournament: Tournament) -> dict[int, Table]:
    """Entry id -> the table of the game they are playing now."""
    tables = tournament.tables.filter(scored=False, match__status=Match.Status.RUNNING).select_related("match")
    return {entry_id: table for table in tables for entry_id in table.seating}


def arenas_to_join(now=None) -> list[tuple[Tournament, bool]]:
    """Arenas a player can join: those running before their end time (True), then the coming
    ones, soonest first (False)."""
    now = now or timezone.now()
    arenas = Tournament.objects.filter(format=arena_format.Arena.slug)
    live = [t for t in arenas.filter(status=Tournament.Status.RUNNING).order_by("starts_at") if now < t.ends_at]
    coming = arenas.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at")[:8]
    return [(t, True) for t in live] + [(t, False) for t in coming]


def earned(outcome: str, streak: int = 0, berserk: bool = False) -> int:
    return arena.points_for(outcome, arena.SeatBefore(streak, berserk)).points


# The points a game earns, for the page's rules and the leaderboard's key in words (tournaments/arena.py).
POINTS = {
    "win": earned(arena.WON), "draw": earned(arena.DREW), "streak": arena.STREAK_START, "berserk": arena.BERSERK_BONUS,
    "streak_win": earned(arena.WON, arena.STREAK_START), "streak_draw": earned(arena.DREW, arena.STREAK_START),
    "berserk_win": earned(arena.WON, berserk=True), "berserk_streak_win": earned(arena.WON, arena.STREAK_START, True),
}  # fmt: skip


def board_context(request, tournament: Tournament) -> dict:
    """What the leaderboard fragment shows, the visitor's own line first."""
    me = tournament.entries.filter(user=request.user).first() if request.user.is_authenticated else None
    return {
        "tournament": tournament,
        "me": me,
        "my_table": my_table(tournament, request.user),
        "board": leaderboard(tournament),
        "ended": tournament.status == Tournament.Status.RUNNING and timezone.now() >= tournament.ends_at,
        "points": POINTS,
    }


def arena_page(request, tournament: Tournament):
    return render(
        request,
        "tournaments/arena.html",
        {
            **board_context(request, tournament),
            "rules": tournament.rules,
            "accepts_entries": services.accepts_entries(tournament),
            "refresh_ms": REFRESH_SECONDS * 1000,
        },
    )


@require_GET
def board(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id, format=arena_format.Arena.slug)
    return render(request, "tournaments/_arena_board.html", board_context(request, tournament))


@require_POST
@login_required
def act(request, tournament_id: int, action: str):
    """Join, leave (before the start), pause or rejoin from the arena's page; join and rejoin go
    straight to a game seated at once. Back on the arena's page its card says where the player
    stands, so no message repeats it; a message says only what the card cannot (a leave, a refusal)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id, format=arena_format.Arena.slug)
    change = {
        "join": services.enter,
        "leave": services.withdraw,
        "pause": arena_format.pause_player,
        "rejoin": arena_format.rejoin,
    }.get(action)
    if change is None:
        raise Http404("Join, leave, pause or rejoin.")
    try:
        change(tournament.pk, request.user)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("tournament", tournament_id=tournament.pk)
    if action == "leave":
        messages.info(request, LEFT)
    table = None
    if action in ("join", "rejoin"):
        # The wave the change queued runs on a Celery worker on the real stack, after this answer:
        # the player landed on the arena's page while their clock ran, and one who did not follow its
        # link was counted absent (found on `make stack`). Seated here, the answer takes them there.
        arena_format.seat_now(tournament.pk)
        table = my_table(tournament, request.user)
    if table is not None:
        messages.info(request, SEATED[action])
        return redirect("table", match_id=table.match_id)
    return redirect("tournament", tournament_id=tournament.pk)


# What a player hears when joining or coming back seats them at once (on the table's page).
SEATED = {"join": "You are in the arena: your first game is on.", "rejoin": "Welcome back: your next game is on."}
LEFT = "You have left the arena before its start: you are no longer entered. Join again whenever you like."


def my_table(tournament: Tournament, user) -> Table | None:
    """The table of the player's game under way in the arena, if any."""
    me = tournament.entries.filter(user=user).first() if user.is_authenticated else None
    return at_tables(tournament).get(me.pk) if me else None


@require_POST
@login_required
def berserk(request, tournament_id: int):
    """From the table: halve one's clock for a point more on a win; back to the table either way."""
    tournament = get_object_or_404(Tournament, pk=tournament_id, format=arena_format.Arena.slug)
    try:
        arena_format.go_berserk(tournament.pk, request.user)
        messages.info(request, "Berserk! Your clock is halved: a win earns one more point.")
    except MatchError as error:
        messages.error(request, error.message)
    table = my_table(tournament, request.user)
    return redirect("table", match_id=table.match_id) if table else redirect("tournament", tournament_id=tournament.pk)
