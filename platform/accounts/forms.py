"""The registration form: a thin shell around services.check_registration (the API uses it too)."""

from axes.handlers.proxy import AxesProxyHandler
from django import forms
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.signals import user_login_failed
from django.core.exceptions import ValidationError

from accounts import services

# The service says "password" where the form has two boxes.
FORM_FIELD = {"password": "password1"}
NEW_PASSWORD = forms.PasswordInput(attrs={"autocomplete": "new-password"})


class RegistrationForm(forms.Form):
    username = forms.CharField(
        help_text="3 to 30 letters, digits, _ or -.",
        widget=forms.TextInput(attrs={"autocomplete": "username", "maxlength": 30, "autocapitalize": "none"}),
    )
    email = forms.CharField(label="E-mail", widget=forms.EmailInput(attrs={"autocomplete": "email"}))
    password1 = forms.CharField(label="Password", strip=False, widget=NEW_PASSWORD)
    password2 = forms.CharField(label="Password again", strip=False, widget=NEW_PASSWORD)

    def clean(self):
        data = super().clean()
        try:
            # The fields are in the service's argument order: username, email, password, password2.
            services.check_registration(*(data.get(name, "") for name in self.fields))
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                field = FORM_FIELD.get(field, field)
                if field not in self.errors:  # "This field is required." says enough
                    for message in messages:
                        self.add_error(field, message)
        return data

    def save(self):
        data = self.cleaned_data
        return services.do_register(data["username"], data["email"], data["password1"], data["password2"])


class GuardedPasswordChangeForm(PasswordChangeForm):
    """The current password asked again before a change counts as a login: a wrong one is a
    failed login of the account and the address, and a locked-out address may not try, so a
    session left open does not let anyone guess the password past the login's limit."""

    def __init__(self, user, *args, request=None, **kwargs):
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self):
        credentials = {"username": self.user.username}
        if not AxesProxyHandler.is_allowed(self.request, credentials):
            raise ValidationError("Too many wrong passwords: try again later.", code="locked_out")
        try:
            return super().clean_old_password()
        except ValidationError:
            user_login_failed.send(sender=__name__, credentials=credentials, request=self.request)
            raise
