"""INTERIM (replaced by helper 1's version on merge)."""

from django import forms


def option_fields(engine, initial=None):
    fields = {}
    for name, opt in engine.options.items():
        value = (initial or {}).get(name, opt.default)
        if isinstance(opt.default, bool):
            fields[name] = forms.BooleanField(label=name, required=False, initial=value, help_text=opt.help)
        elif opt.choices:
            fields[name] = forms.TypedChoiceField(
                label=name,
                choices=[(c, str(c)) for c in opt.choices],
                coerce=type(opt.default),
                initial=value,
                help_text=opt.help,
            )
        else:
            fields[name] = forms.IntegerField(
                label=name, min_value=opt.minimum, max_value=opt.maximum, initial=value, help_text=opt.help
            )
    return fields


def options_from(engine, cleaned):
    return dict(cleaned)
