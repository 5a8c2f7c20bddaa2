"""Rating.established_opponents, counted for the ratings there are from the ledger: each rated
table's rows say who was established before it (games_before >= 30, sigma_before <= 5)."""

from django.conf import settings
from django.db import migrations, models


def count_established_opponents(apps, schema_editor):
    Rating = apps.get_model("ratings", "Rating")
    RatingChange = apps.get_model("ratings", "RatingChange")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    house = set(User.objects.filter(is_bot=True, bot_owner=None).values_list("pk", flat=True))
    tables: dict[int, list[tuple]] = {}
    rows = RatingChange.objects.order_by().values_list("match_id", "game", "user_id", "games_before", "sigma_before")
    for match_id, game, user_id, games, sigma in rows.iterator(chunk_size=5000):
        tables.setdefault(match_id, []).append((game, user_id, user_id in house or (games >= 30 and sigma <= 5.0)))
    met: dict[tuple[str, int], set[int]] = {}
    for seats in tables.values():
        vouching = {user_id for _, user_id, vouches in seats if vouches}
        for game, user_id, _ in seats:
            met.setdefault((game, user_id), set()).update(vouching - {user_id})
    for (game, user_id), opponents in met.items():
        if opponents:
            Rating.objects.filter(game=game, user_id=user_id).update(established_opponents=len(opponents))


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0002_bluff_record"),
        ("accounts", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="established_opponents",
            field=models.PositiveIntegerField(
                default=0,
                help_text="Different opponents rated against while they were established (house bots always): "
                "a ladder place needs 10.",
            ),
        ),
        migrations.RunPython(count_established_opponents, migrations.RunPython.noop),
    ]
