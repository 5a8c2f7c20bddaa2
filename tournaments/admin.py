from django.contrib import admin

from tournaments.models import Entry, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "starts_at", "status", "organizer"]
    list_filter = ["game", "status", "format"]
    search_fields = ["name"]
    inlines = [EntryInline]

    def has_module_permission(self, request):
        return request.user.is_active and (request.user.is_staff or getattr(request.user, "can_organize", False))

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and (
            obj is None or request.user.is_superuser or obj.organizer_id == request.user.pk
        )

    def has_delete_permission(self, request, obj=None):
        return self.has_change_permission(request, obj)

    def save_model(self, request, obj, form, change):
        if not change and not obj.organizer_id:
            obj.organizer = request.user
        super().save_model(request, obj, form, change)
