from tests.ratings.conftest import finished_match  # noqa: F401  (finished matches as rows)
