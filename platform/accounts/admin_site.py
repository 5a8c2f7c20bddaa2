"""The admin site, for staff and for organizers: the organizer role is its own permission, not staff.

An organizer reaches the admin for their own tournaments (tournaments.admin lets them see only
that module); nothing else in it, and no staff-only right elsewhere (the full hidden-hand replay
export is for superusers and a match's own players: games.matches.replays.may_export_everything).
"""

from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.exceptions import ValidationError


def may_use_admin(user) -> bool:
    return user.is_active and (user.is_staff or getattr(user, "can_organize", False))


class AdminLoginForm(AdminAuthenticationForm):
    """Django's admin login, which also lets organizers in."""

    def confirm_login_allowed(self, user):
        AuthenticationForm.confirm_login_allowed(self, user)
        if not may_use_admin(user):
            raise ValidationError(self.error_messages["invalid_login"], code="invalid_login",
                                  params={"username": self.username_field.verbose_name})  # fmt: skip


class DubiumAdminSite(admin.AdminSite):
    login_form = AdminLoginForm

    def has_permission(self, request) -> bool:
        return may_use_admin(request.user)
