import pytest
from django.contrib.auth.models import User

from tests.factories import EventRoleFactory
from tournament.services.roles import staff_groups_install


@pytest.fixture
def organizer(event) -> User:
    """An organizer of the event (``role_grant``: staff, in the Organizers group, its permissions installed)."""
    staff_groups_install()
    return EventRoleFactory(event=event, user__username="org", kind="organizer").user
