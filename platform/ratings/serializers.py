from rest_framework import serializers

from ratings.models import HighScore, Rating, RatingChange


class RatingSerializer(serializers.ModelSerializer):
    player = serializers.CharField(source="user.username")
    bot = serializers.BooleanField(source="is_bot")
    provisional = serializers.BooleanField(
        help_text="Not yet established (fewer than 30 rated games, or sigma above 5): not on the leaderboards."
    )
    ordinal = serializers.FloatField(help_text="OpenSkill's conservative estimate, mu - 3 sigma.")
    place = serializers.SerializerMethodField(
        help_text="Place on this game's ladder (all accounts); null while off it (see unranked_because)."
    )
    established_opponents = serializers.IntegerField(
        help_text="Different opponents rated against while they were established (house bots always); "
        "a ladder place needs 10."
    )
    unranked_because = serializers.CharField(help_text="Why the rating has no ladder place; empty when it has one.")

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
            "established_opponents",
            "unranked_because",
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


class BluffSummarySerializer(serializers.Serializer):
    """One game's bluff and doubt figures of an account (ratings.bluffs.player_bluffs)."""

    game = serializers.CharField()
    matches = serializers.IntegerField()
    claims = serializers.IntegerField(help_text="Bids (Dudo) or plays (I Doubt It) made.")
    judged = serializers.IntegerField(help_text="Claims whose truth the rules showed.")
    bluffs = serializers.IntegerField(help_text="Shown claims that were false.")
    caught = serializers.IntegerField(help_text="Bluffs that were doubted.")
    chances = serializers.IntegerField(help_text="Times a doubt was allowed.")
    doubts = serializers.IntegerField()
    doubts_right = serializers.IntegerField(help_text="Doubts that found a bluff.")
    bluff_rate = serializers.FloatField(allow_null=True, help_text="bluffs / judged")
    caught_rate = serializers.FloatField(allow_null=True, help_text="caught / bluffs")
    doubt_rate = serializers.FloatField(allow_null=True, help_text="doubts / chances")
    doubt_accuracy = serializers.FloatField(allow_null=True, help_text="doubts_right / doubts")
