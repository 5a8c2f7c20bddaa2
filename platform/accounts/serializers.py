"""What the accounts API reads and answers (also the OpenAPI schema's components)."""

from django.contrib.auth import get_user_model
from django.urls import reverse
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class RegisterSerializer(serializers.Serializer):
    """Only shapes the input: services.check_registration does the validation, as for the web form."""

    username = serializers.CharField(max_length=200, allow_blank=True, trim_whitespace=False)
    email = serializers.CharField(max_length=254, allow_blank=True)
    password = serializers.CharField(
        max_length=4096, allow_blank=True, write_only=True, trim_whitespace=False
    )


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=200)
    password = serializers.CharField(max_length=4096, write_only=True, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text='Send it as "Authorization: Token <token>".')
    username = serializers.CharField()


class AccountSerializer(serializers.ModelSerializer):
    """What anybody may see of an account."""

    display_name = serializers.CharField(read_only=True)
    profile_url = serializers.SerializerMethodField()
    bot_owner = serializers.SlugRelatedField(slug_field="username", read_only=True, allow_null=True)
    bots = serializers.SerializerMethodField()

    class Meta:
        model = get_user_model()
        fields = [
            "username", "display_name", "role", "is_bot", "bot_owner", "bots", "date_joined", "profile_url",
        ]
        read_only_fields = fields

    def get_profile_url(self, user) -> str:
        return reverse("profile", args=[user.username])

    @extend_schema_field(serializers.ListField(child=serializers.CharField()))
    def get_bots(self, user) -> list[str]:
        return sorted(user.owned_bots.values_list("username", flat=True))


class MeSerializer(AccountSerializer):
    """The signed-in account: also its e-mail address and whether it may organize tournaments."""

    can_organize = serializers.BooleanField(read_only=True)
    email = serializers.CharField(read_only=True, help_text="Empty when none was given.")

    class Meta(AccountSerializer.Meta):
        fields = AccountSerializer.Meta.fields + ["email", "can_organize"]
        read_only_fields = fields


class RegisteredSerializer(MeSerializer):
    token = serializers.SerializerMethodField()

    class Meta(MeSerializer.Meta):
        fields = MeSerializer.Meta.fields + ["token"]
        read_only_fields = fields

    def get_token(self, user) -> str:
        return self.context["token"]
