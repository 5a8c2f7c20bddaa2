from django.contrib import admin

from ratings.models import HighScore, Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "elo", "peak", "games", "wins", "mu", "sigma", "is_bot"]
    list_filter = ["game", "is_bot"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]
    readonly_fields = ["updated_at"]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    """The ledger: edit nothing by hand; `manage.py recompute_ratings` derives every number."""

    list_display = ["match", "user", "game", "place", "before", "after", "delta", "finished_at"]
    list_filter = ["game"]
    search_fields = ["user__username"]
    raw_id_fields = ["match", "user"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(HighScore)
class HighScoreAdmin(admin.ModelAdmin):
    list_display = ["user", "game", "score", "match", "finished_at"]
    list_filter = ["game"]
    raw_id_fields = ["match", "user"]
