"""Accounts in the admin: filter by role, promote players to organizers."""

from django.contrib import admin, messages
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm
from django.core.exceptions import ValidationError

from accounts import services
from accounts.models import User


class UserCreationForm(AdminUserCreationForm):
    """The admin's "add user" form, with the site's username rule."""

    class Meta(AdminUserCreationForm.Meta):
        model = User
        fields = ["username"]

    def clean_username(self):
        try:
            return services.check_username(self.cleaned_data.get("username", ""))
        except ValidationError as error:
            raise ValidationError(error.messages) from None


# Each role in the admin's action list: what the selected accounts become, and what that gives them
# (services.do_set_role).
ROLE_WORDS = {
    User.Role.PLAYER: ("players", "a player", "no organizing, no admin"),
    User.Role.ORGANIZER: ("organizers", "an organizer", "their own tournaments, no staff rights"),
    User.Role.STAFF: ("staff", "staff", "the admin"),
}


def set_role_action(role: User.Role):
    become, becomes_one, gives = ROLE_WORDS[role]

    def action(modeladmin, request, queryset):
        for user in queryset:
            services.do_set_role(user, role)
        count = queryset.count()
        said = f"{count} accounts are now {become}." if count != 1 else f"1 account is now {becomes_one}."
        modeladmin.message_user(request, said, messages.SUCCESS)

    action.__name__ = f"make_{role.value}"
    action.short_description = f"Make the selected accounts {become} ({gives})"
    return action


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
    add_form = UserCreationForm
    list_display = ["username", "email", "role", "is_bot", "bot_owner", "is_staff", "date_joined"]
    list_filter = ["role", "is_bot", "is_staff", "is_superuser", "is_active"]
    search_fields = ["username", "email", "first_name", "last_name"]
    raw_id_fields = ["bot_owner"]
    actions = [set_role_action(role) for role in User.Role]
    fieldsets = DjangoUserAdmin.fieldsets + (("Dubium", {"fields": ["role", "is_bot", "bot_owner", "bio"]}),)

    def save_model(self, request, obj, form, change):
        super().save_model(request, obj, form, change)
        if "role" in form.changed_data:
            services.do_set_role(obj, obj.role)  # staff, and only staff, are is_staff
