from rest_framework import serializers

from ratings.models import HighScore, Rating, RatingChange


class RatingSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="is_bot")
    provisional = serializers.BooleanField(help_text="Fewer than 30 rated games in this game.")
    ordinal = serializers.FloatField(help_text="OpenSkill's conservative estimate, mu - 3 sigma.")
    place = serializers.SerializerMethodField(help_text="Place on this game's ladder (all accounts).")

    class Meta:
        model = Rating
        fields = [
            "player",
            "game",
            "place",
            "elo",
            "peak",
            "games",
            "wins",
            "provisional",
            "bot",
            "mu",
            "sigma",
            "ordinal",
        ]

    def get_place(self, rating: Rating) -> int | None:
        return self.context.get("places", {}).get(rating.pk)


class RatingChangeSerializer(serializers.ModelSerializer):
    provisional = serializers.BooleanField(help_text="Played while the rating was provisional.")

    class Meta:
        model = RatingChange
        fields = [
            "match",
            "game",
            "finished_at",
            "seat",
            "place",
            "before",
            "after",
            "delta",
            "games_before",
            "provisional",
            "mu_before",
            "mu_after",
            "sigma_before",
            "sigma_after",
        ]


class HighScoreSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="user.username")

    class Meta:
        model = HighScore
        fields = ["player", "game", "match", "score", "finished_at"]
