"""django.contrib.admin with our site (accounts.admin_site), which organizers reach too; this module
loads with the settings, before the models, so the site itself is named, not imported."""

from django.contrib.admin.apps import AdminConfig


class DubiumAdminConfig(AdminConfig):
    default_site = "accounts.admin_site.DubiumAdminSite"
