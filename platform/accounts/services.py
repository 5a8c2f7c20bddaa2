"""Account changes shared by the web forms, the REST API and the admin (one path for each write).

`check_*` functions validate and raise `ValidationError` with the exact messages people see;
`do_*` functions write.
"""

import re

from django.contrib.auth import get_user_model, password_validation
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction

from accounts.usernames import username_key
from games.engine import GAMES
from games.registry import bot_names

USERNAME_RULE = re.compile(r"[A-Za-z0-9_-]{3,30}")
# Names that would collide with a URL (/api/accounts/me/, ...) or pose as the site.
RESERVED_USERNAMES = frozenset({"me", "register", "token", "admin", "api", "dubium", "staff", "support"})


def reserved_form(name: str) -> str:
    """The username's key without its separators: "Ad-min", "adm_in" and "Adm1n" all read as "admin"
    (a key keeps `_` and `-`, since "ali_ce" and "alice" are two people; a reserved word is not)."""
    return username_key(name).replace("-", "").replace("_", "")


RESERVED_FORMS = frozenset(reserved_form(name) for name in RESERVED_USERNAMES)
# The house bots' accounts are "RandomBot", "HeuristicBot2", ... (lifecycle.house_bot_user): a
# person or an uploaded bot under such a name, or one that reads like it ("Rand0m-Bot"), would pass
# for the site's own. Matched on the reserved form, where digits read as letters ("2" stays "2").
HOUSE_BOT_FORMS = re.compile(
    "("
    + "|".join(sorted({re.escape(reserved_form(name)) for slug in GAMES for name in bot_names(slug)}))
    + ")"
    + re.escape(reserved_form("bot"))
    + r"[\dlo]*"
)

USERNAME_INVALID = "Usernames are 3 to 30 letters, digits, _ or -."
USERNAME_TAKEN = "That username is taken."
USERNAME_RESERVED = "That username is reserved."
EMAIL_INVALID = "Enter a valid e-mail address."
PASSWORDS_DIFFER = "The two passwords differ."


def check_username(username: str) -> str:
    """The username to store (surrounding spaces removed), or the reason it cannot be used."""
    username = (username or "").strip()
    if not USERNAME_RULE.fullmatch(username):
        raise ValidationError(USERNAME_INVALID, code="invalid")
    key = username_key(username)
    reserved = reserved_form(username)
    if reserved in RESERVED_FORMS or HOUSE_BOT_FORMS.fullmatch(reserved):
        raise ValidationError(USERNAME_RESERVED, code="reserved")
    if get_user_model().objects.filter(username_key=key).exists():
        raise ValidationError(USERNAME_TAKEN, code="taken")
    return username


def check_registration(username: str, email: str, password: str, password2: str | None = None) -> dict:
    """Every problem at once, keyed by field ("username", "email", "password", "password2").

    password2 is the web form's repetition; the API sends the password once.
    """
    errors: dict[str, list[str]] = {}
    try:
        username = check_username(username)
    except ValidationError as error:
        errors["username"] = error.messages
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        errors["email"] = [EMAIL_INVALID]
    password = password or ""
    if password2 is not None and password != password2:
        errors["password2"] = [PASSWORDS_DIFFER]
    else:
        try:
            candidate = get_user_model()(username=username or "", email=email)
            password_validation.validate_password(password, candidate)
        except ValidationError as error:
            errors["password"] = error.messages
    if errors:
        raise ValidationError(errors)
    return {"username": username, "email": email, "password": password}


def do_register(username: str, email: str, password: str, password2: str | None = None):
    """Create a player account, or raise ValidationError with every problem."""
    data = check_registration(username, email, password, password2)
    try:
        with transaction.atomic():
            return get_user_model().objects.create_user(**data)
    except IntegrityError:
        # Two sign-ups for the same name raced past check_username: the unique index decided.
        raise ValidationError({"username": [USERNAME_TAKEN]}) from None


def do_set_role(user, role: str) -> None:
    """Staff are staff; organizers are not: the organizer role is its own permission
    (`User.can_organize`), which reaches the organizer pages and their own tournaments in the admin
    (accounts.admin_site) and no staff right (docs/security.md, "Fair play")."""
    user.role = role
    user.is_staff = role == user.Role.STAFF or user.is_superuser
    user.save(update_fields=["role", "is_staff"])
