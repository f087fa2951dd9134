"""A step that cannot count its progress (a tree build) says it is still working after a few
seconds, and says nothing when it is quick or when progress is off."""
import time

from guts.engine.progress import elapsed_bar


def test_a_long_step_shows_its_elapsed_time(capsys):
    with elapsed_bar("building x.game", enabled=True, after=0.2):
        time.sleep(1.5)
    assert "building x.game" in capsys.readouterr().err


def test_a_quick_step_or_a_quiet_one_shows_nothing(capsys):
    with elapsed_bar("building x.game", enabled=True, after=5.0):
        pass
    with elapsed_bar("building y.game", enabled=False, after=0.0):
        time.sleep(0.3)
    assert capsys.readouterr().err == ""
