import pytest

from tests.factories import UserFactory
from tournament.services.roles import staff_groups_install


@pytest.fixture
def people(db):
    """Makes accounts: ``people(name, group)`` a staff member of the group (Organizers, Referees: the staff groups
    installed), ``people(name)`` an account without staff status; ``flags`` are the account's."""
    staff_groups_install()

    def make(name, group=None, **flags):
        return UserFactory(username=name, is_staff=group is not None, groups=[group] if group else [], **flags)

    return make
