"""The public profile page: /accounts/u/<username>/."""

import pytest

pytestmark = pytest.mark.django_db


def test_it_shows_the_display_name_role_and_membership(client, make_user):
    make_user("olga", role="organizer", first_name="Olga", last_name="Kovač")
    response = client.get("/accounts/u/olga/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<title>Olga Kovač · Dubium</title>" in html
    assert '<span class="badge role-organizer">Organizer</span>' in html
    assert "@olga" in html
    assert "Member since" in html


def test_the_username_matches_in_any_case(client, alice):
    response = client.get("/accounts/u/ALICE/")
    assert response.status_code == 200
    assert response.context["person"] == alice


def test_an_unknown_user_is_a_404(client, db):
    assert client.get("/accounts/u/nobody/").status_code == 404


def test_it_lists_the_bots_owned(client, make_user, alice):
    make_user("zed_bot", is_bot=True, bot_owner=alice)
    make_user("abe_bot", is_bot=True, bot_owner=alice)
    response = client.get("/accounts/u/alice/")
    assert [bot.username for bot in response.context["bots"]] == ["abe_bot", "zed_bot"]
    assert '<a href="/accounts/u/abe_bot/">abe_bot</a>' in response.content.decode()


def test_a_bot_s_page_names_its_owner(client, make_user, alice):
    make_user("zed_bot", is_bot=True, bot_owner=alice)
    html = client.get("/accounts/u/zed_bot/").content.decode()
    assert '<span class="badge bot">Bot</span>' in html
    assert 'bot of <a href="/accounts/u/alice/">alice</a>' in html


def test_it_has_a_ratings_section_for_the_ratings_app(client, alice):
    html = client.get("/accounts/u/alice/").content.decode()
    assert '<section class="profile-ratings">' in html
    assert "No rated games yet." in html


def test_only_the_owner_sees_the_change_password_link(client, alice, bob):
    assert "/accounts/password/" not in client.get("/accounts/u/alice/").content.decode()
    client.force_login(alice)
    assert 'href="/accounts/password/"' in client.get("/accounts/u/alice/").content.decode()
    assert 'href="/accounts/password/"' not in client.get("/accounts/u/bob/").content.decode()
