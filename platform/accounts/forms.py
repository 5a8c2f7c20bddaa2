"""The registration form: a thin shell around services.check_registration (the API uses it too)."""

from django import forms
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
