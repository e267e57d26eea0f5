"""Clock buttons: gesture timing (pure) and gpiozero wiring with MockFactory."""

from __future__ import annotations

import time

import pytest

from tilecam.firmware.buttons import END_TURN, PASS, UNDO, ClockButtons, GestureDecoder


def run(decoder, script):
    """``script``: [(t, "press"|"release"|"poll")] → gestures in order."""
    out = []
    for t, what in script:
        out += getattr(decoder, what)(t)
    return out


def test_short_press_ends_the_turn_after_the_double_press_window():
    d = GestureDecoder(long_press_s=1.0, double_press_s=0.3)
    assert run(d, [(0.0, "press"), (0.1, "release"), (0.3, "poll")]) == []
    assert d.poll(0.41) == [END_TURN]
    assert d.poll(5.0) == []


def test_double_press_is_a_pass_and_not_an_end_of_turn():
    d = GestureDecoder(long_press_s=1.0, double_press_s=0.3)
    assert run(d, [(0.0, "press"), (0.1, "release"), (0.25, "press"), (0.3, "release"), (2.0, "poll")]) == [PASS]


def test_two_presses_far_apart_are_two_ends_of_turn():
    d = GestureDecoder(long_press_s=1.0, double_press_s=0.3)
    got = run(d, [(0.0, "press"), (0.1, "release"), (1.0, "press"), (1.1, "release"), (2.0, "poll")])
    assert got == [END_TURN, END_TURN]


def test_long_press_undoes_once_while_held_and_release_adds_nothing():
    d = GestureDecoder(long_press_s=1.0, double_press_s=0.3)
    assert run(d, [(0.0, "press"), (0.5, "poll"), (1.0, "poll"), (1.5, "poll")]) == [UNDO]
    assert run(d, [(3.0, "release"), (4.0, "poll")]) == []


def test_decoder_rejects_inconsistent_timings():
    with pytest.raises(ValueError):
        GestureDecoder(long_press_s=0.2, double_press_s=0.5)


def test_gpio_buttons_with_mock_pins():
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    got = []
    buttons = ClockButtons([17, 27], lambda seat, g: got.append((seat, g)), long_press_s=0.6,
                           double_press_s=0.2, pin_factory=factory, poll_s=0.01)
    try:
        p17, p27 = factory.pin(17), factory.pin(27)
        p27.drive_low(); time.sleep(0.02); p27.drive_high()      # short press, player 2
        time.sleep(0.4)
        p17.drive_low(); time.sleep(0.02); p17.drive_high()      # double press, player 1
        time.sleep(0.02)
        p17.drive_low(); time.sleep(0.02); p17.drive_high()
        time.sleep(0.4)
        p17.drive_low(); time.sleep(0.9); p17.drive_high()       # long press, player 1
        time.sleep(0.3)
    finally:
        buttons.close()
    assert got == [(1, END_TURN), (0, PASS), (0, UNDO)]
