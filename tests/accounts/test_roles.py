"""Roles (player, organizer, staff), can_organize, and promoting accounts in the admin."""

import pytest
from django.contrib.auth import get_user_model

from accounts import services

pytestmark = pytest.mark.django_db
User = get_user_model()


def test_new_accounts_are_players_who_cannot_organize(alice):
    assert alice.role == User.Role.PLAYER
    assert alice.can_organize is False


@pytest.mark.parametrize("role, staff", [(User.Role.ORGANIZER, False), (User.Role.STAFF, True)])
def test_organizers_and_staff_can_organize_but_only_staff_are_staff(alice, role, staff):
    """Organizers were made staff to reach the admin, and so downloaded every hidden hand (issue 30)."""
    services.do_set_role(alice, role)
    alice.refresh_from_db()
    assert (alice.role, alice.can_organize, alice.is_staff) == (role, True, staff)


def test_an_organizer_signs_in_to_the_admin_and_sees_only_tournaments(client, alice, bob):
    services.do_set_role(alice, User.Role.ORGANIZER)
    response = client.post("/admin/login/?next=/admin/", {"username": "alice", "password": "correct horse battery"})
    assert response.status_code == 302 and response["Location"] == "/admin/"
    index = client.get("/admin/")
    assert [app["app_label"] for app in index.context["app_list"]] == ["tournaments"]
    assert client.get("/admin/accounts/user/").status_code == 403
    client.logout()
    refused = client.post("/admin/login/", {"username": "bob", "password": "correct horse battery"})
    assert refused.status_code == 200 and "/admin/login/" in refused.request["PATH_INFO"]
    assert not refused.wsgi_request.user.is_authenticated


def test_demoting_to_player_takes_the_admin_away_but_not_from_superusers(alice, staff_admin):
    services.do_set_role(alice, User.Role.ORGANIZER)
    services.do_set_role(alice, User.Role.PLAYER)
    services.do_set_role(staff_admin, User.Role.PLAYER)
    alice.refresh_from_db()
    staff_admin.refresh_from_db()
    assert (alice.is_staff, alice.can_organize) == (False, False)
    assert staff_admin.is_staff is True


def test_the_admin_filters_accounts_by_role(client, staff_admin, alice, make_user):
    make_user("olga", role="organizer")
    client.force_login(staff_admin)
    response = client.get("/admin/accounts/user/", {"role__exact": "organizer"})
    assert response.status_code == 200
    assert [user.username for user in response.context["cl"].result_list] == ["olga"]


def test_an_admin_action_promotes_players_to_organizers(client, staff_admin, alice, bob):
    client.force_login(staff_admin)
    listed = client.get("/admin/accounts/user/").content.decode()
    assert "Make the selected accounts organizers (their own tournaments, no staff rights)" in listed
    assert "Make the selected accounts staff (the admin)" in listed and "staffs" not in listed
    response = client.post("/admin/accounts/user/", {
        "action": "make_organizer", "_selected_action": [alice.pk, bob.pk],
    })
    assert response.status_code == 302
    assert "2 accounts are now organizers." in client.get(response["Location"]).content.decode()
    assert set(User.objects.filter(role="organizer").values_list("username", flat=True)) == {"alice", "bob"}
    alice.refresh_from_db()
    assert alice.can_organize and not alice.is_staff


def test_the_admin_change_form_promotes_an_organizer(client, staff_admin, alice):
    client.force_login(staff_admin)
    page = client.get(f"/admin/accounts/user/{alice.pk}/change/")
    form = page.context["adminform"].form
    data = {name: value for name, value in form.initial.items() if value is not None and name != "password"}
    data.update({
        "role": "organizer", "date_joined_0": alice.date_joined.strftime("%Y-%m-%d"),
        "date_joined_1": alice.date_joined.strftime("%H:%M:%S"), "groups": [], "user_permissions": [],
    })
    data = {key: value for key, value in data.items() if not isinstance(value, list) or value}
    data.pop("date_joined", None)
    data.pop("last_login", None)
    response = client.post(f"/admin/accounts/user/{alice.pk}/change/", data)
    assert response.status_code == 302, response.context["adminform"].form.errors
    alice.refresh_from_db()
    assert (alice.role, alice.is_staff, alice.can_organize) == ("organizer", False, True)


def test_the_admin_add_form_uses_the_site_s_username_rule(client, staff_admin, alice):
    client.force_login(staff_admin)
    response = client.post("/admin/accounts/user/add/", {
        "username": "ALICE", "usable_password": "false", "password1": "", "password2": "",
    })
    assert response.context["adminform"].form.errors["username"] == ["That username is taken."]
    response = client.post("/admin/accounts/user/add/", {
        "username": "new_one", "usable_password": "false", "password1": "", "password2": "",
    })
    assert response.status_code == 302
    assert User.objects.filter(username="new_one").exists()


def test_one_account_promoted_is_told_in_the_singular(client, staff_admin, alice):
    client.force_login(staff_admin)
    response = client.post("/admin/accounts/user/", {"action": "make_organizer", "_selected_action": [alice.pk]})
    assert "1 account is now an organizer." in client.get(response["Location"]).content.decode()
