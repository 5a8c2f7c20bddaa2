"""The history moves from the snapshot to the log: each action's row holds the entries it added,
the snapshot only the last KEPT_HISTORY. A match from before keeps the entries before its
snapshot's tail on its last action's row (what `new_game` wrote aside), so its whole history
reads the same."""

from django.db import migrations, models

from games.engine import GAMES, KEPT_HISTORY


def cut_snapshots(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    MatchAction = apps.get_model("matches", "MatchAction")
    for match in Match.objects.exclude(state=None).iterator():
        history = match.state["history"]
        if len(history) <= KEPT_HISTORY or not match.seq:
            continue
        engine = GAMES[match.game]
        first = len(engine.dump(engine.new_game(match.players, match.seed, match.options))["history"])
        start = len(history) - KEPT_HISTORY
        MatchAction.objects.filter(match=match, seq=match.seq).update(events=history[first:start])
        match.state = {**match.state, "history": history[start:]}
        match.history_start = start
        match.save(update_fields=["state", "history_start"])


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0005_seat_sockets'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='history_start',
            field=models.PositiveIntegerField(default=0, help_text="Where the snapshot's history starts in the whole history (the rest is in the log)."),
        ),
        migrations.AddField(
            model_name='matchaction',
            name='events',
            field=models.JSONField(default=list, help_text='The history entries this action added.'),
        ),
        migrations.AlterField(
            model_name='match',
            name='state',
            field=models.JSONField(blank=True, help_text='game.dump() after the last action, its history cut to the last entries.', null=True),
        ),
        migrations.RunPython(cut_snapshots, migrations.RunPython.noop),
    ]
