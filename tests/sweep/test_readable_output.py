"""What a reader gets from a sweep: a labelled plot, rows in spec order, no bar off a terminal."""

import csv
import io
import math
import sys
from pathlib import Path

import pytest

from shufflekit.sweep import load_spec, parse_spec, run_sweep
from shufflekit.sweep.engine import InOrder, run_tasks
from shufflekit.sweep.task import base_row, task_key

ROOT = Path(__file__).resolve().parents[2]
GRID = {
    "mechanism": "krr",
    "k": [2, 3],
    "eps0": 1.0,
    "n": [50, 200],
    "method": "blanket",
    "delta": [1e-6, 1e-3],
}


def fake_rows(spec):
    """Rows of ``spec`` as if computed (a smooth made-up answer), without any accountant."""
    rows = []
    for i, task in enumerate(spec.tasks):
        row = base_row(task, task_key(task), i)
        value = (
            math.exp(-10 * task.target) / (1 + i % 7)
            if task.quantity == "delta"
            else 1.0 / math.sqrt(task.n) * (1 + i % 5)
        )
        row.update(status="ok", bound="upper", epsilon=task.target, delta=value)
        if task.quantity == "epsilon":
            row.update(epsilon=value, delta=task.target)
        rows.append(row)
    return rows


@pytest.fixture
def figure():
    from shufflekit.sweep.plot import figure as make

    made = []

    def build(*args, **kwargs):
        fig, x = make(*args, **kwargs)
        made.append(fig)
        return fig, x

    yield build
    import matplotlib.pyplot as plt

    for fig in made:
        plt.close(fig)


def test_figure2_plot_names_every_curve_and_tells_24_apart(figure):
    spec = load_spec(ROOT / "examples" / "sweeps" / "figure2.toml")
    fig, x = figure(fake_rows(spec), title=spec.title)
    assert x == "target"
    (ax,) = fig.axes
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert len(labels) == len(set(labels)) == 24
    assert "krr (eps0=1, k=10), n=10000: blanket" in labels
    assert "krr (eps0=4, k=10), n=10000: lower" in labels
    assert "blh (eps0=4, k=4), n=10000: clone-numeric" in labels
    assert ax.get_xlabel() == "epsilon" and ax.get_ylabel() == "delta"
    assert ax.get_yscale() == "log" and ax.get_xscale() == "linear"
    assert ax.get_title() == spec.title
    styles = {
        (line.get_color(), str(line.get_linestyle()), line.get_marker()) for line in ax.get_lines()
    }
    assert len(ax.get_lines()) == 24 and len(styles) == 24
    # the notebooks' palette
    from shufflekit.sweep.plot import PALETTE

    assert {line.get_color() for line in ax.get_lines()} <= set(PALETTE)


def test_epsilon_against_n_and_both_answers(figure):
    grids = [
        {
            "mechanism": "krr",
            "k": 10,
            "eps0": 4.0,
            "n": [100, 1000, 10000],
            "method": ["blanket", "lower"],
            "delta": 1e-6,
        },
        {
            "mechanism": "rr",
            "eps0": 1.0,
            "n": [100, 1000, 10000],
            "method": "blanket",
            "epsilon": 0.5,
        },
    ]
    fig, x = figure(fake_rows(parse_spec({"grid": grids})))
    assert x == "n"
    top, bottom = fig.axes
    assert (top.get_ylabel(), bottom.get_ylabel()) == ("delta", "epsilon")
    assert top.get_xlabel() == bottom.get_xlabel() == "n"
    assert top.get_xscale() == bottom.get_xscale() == "log" and top.get_yscale() == "log"
    assert [t.get_text() for t in top.get_legend().get_texts()] == [
        "rr (eps0=1), epsilon=0.5: blanket"
    ]
    assert [t.get_text() for t in bottom.get_legend().get_texts()] == [
        "krr (eps0=4, k=10), delta=1e-06: blanket",
        "krr (eps0=4, k=10), delta=1e-06: lower",
    ]


def test_delta_target_axis_is_logarithmic_and_adjacency_named_when_it_varies(figure):
    grid = {
        "mechanism": "rr",
        "eps0": 1.0,
        "n": 100,
        "method": "blanket",
        "adjacency": ["replace-one", "zero-out"],
        "delta": [1e-9, 1e-6, 1e-3],
    }
    fig, x = figure(fake_rows(parse_spec({"grid": [grid]})))
    (ax,) = fig.axes
    assert x == "target" and ax.get_xlabel() == "delta" and ax.get_xscale() == "log"
    assert ax.get_ylabel() == "epsilon"
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels == [
        "rr (eps0=1), n=100: blanket, replace-one",
        "rr (eps0=1), n=100: blanket, zero-out",
    ]


def test_plot_of_a_real_sweep_on_the_command_line(tmp_path, capsys):
    from shufflekit.cli import main

    spec = tmp_path / "s.toml"
    spec.write_text(
        'title = "two k"\n[[grid]]\nmechanism = "krr"\nk = [2, 3]\neps0 = 1.0\n'
        'n = 100\nmethod = "blanket"\ndelta = [1e-6, 1e-3]\n'
    )
    plot = tmp_path / "p.png"
    assert (
        main(
            [
                "sweep",
                str(spec),
                "-o",
                str(tmp_path / "o.csv"),
                "--workers",
                "1",
                "--no-cache",
                "--plot",
                str(plot),
            ]
        )
        == 0
    )
    assert plot.stat().st_size > 0
    assert "plot of the bound against target" in capsys.readouterr().err


def test_in_order_holds_rows_back_and_flushes_what_finished():
    seen = []
    sink = InOrder(lambda r: seen.append(r["index"]))
    for i in (2, 0, 4, 1):
        sink({"index": i})
    assert seen == [0, 1, 2]
    sink.flush()  # index 3 never finished: a gap, still in order
    assert seen == [0, 1, 2, 4]


def test_rows_are_written_in_spec_order_whatever_the_completion_order(tmp_path, monkeypatch):
    """Workers finish in any order (here: last point first); the file is in spec order."""
    import shufflekit.sweep.engine as engine
    from shufflekit.sweep.task import compute

    def backwards(todo, sink, bar, workers, scheduler):
        for index, task in reversed(todo):
            sink(compute(task, index))
        return 0.0, 0.0

    monkeypatch.setattr(engine, "_run_dask", backwards)
    out = tmp_path / "o.csv"
    summary, rows = run_sweep(
        parse_spec({"grid": [GRID]}), str(out), workers=2, use_cache=False, progress=False
    )
    assert summary.total == 8
    assert [int(r["index"]) for r in csv.DictReader(out.open())] == list(range(8))
    assert [r["index"] for r in rows] == list(range(8))


def test_cached_points_take_their_place_in_the_order(tmp_path):
    cache = tmp_path / "cache"
    part = dict(GRID, k=3)  # the points of k = 3 computed (and cached) first
    run_sweep(parse_spec({"grid": [part]}), None, workers=1, cache_dir=cache, progress=False)
    out = tmp_path / "o.csv"
    summary, _ = run_sweep(
        parse_spec({"grid": [GRID]}), str(out), workers=1, cache_dir=cache, progress=False
    )
    assert (summary.cached, summary.computed) == (4, 4)
    rows = list(csv.DictReader(out.open()))
    assert [int(r["index"]) for r in rows] == list(range(8))
    assert [r["k"] for r in rows] == ["2"] * 4 + ["3"] * 4
    assert [r["cached"] for r in rows] == ["False"] * 4 + ["True"] * 4


def test_an_interrupted_sweep_writes_what_finished_in_spec_order(tmp_path, monkeypatch):
    import shufflekit.sweep.engine as engine
    from shufflekit.sweep.task import compute

    def interrupted(todo, sink, bar, workers, scheduler):
        for index, task in (todo[5], todo[2], todo[3]):
            sink(compute(task, index))
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "_run_dask", interrupted)
    out = tmp_path / "o.csv"
    with pytest.raises(KeyboardInterrupt):
        run_sweep(
            parse_spec({"grid": [GRID]}), str(out), workers=2, use_cache=False, progress=False
        )
    assert [int(r["index"]) for r in csv.DictReader(out.open())] == [2, 3, 5]


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("stream, drawn", [(io.StringIO, False), (Terminal, True)])
def test_sweep_progress_only_on_a_terminal(stream, drawn, monkeypatch):
    fake = stream()
    monkeypatch.setattr(sys, "stderr", fake)
    rows = []
    run_tasks(
        parse_spec({"grid": [dict(GRID, k=2, n=50)]}).tasks, rows.append, workers=1, progress=True
    )
    assert len(rows) == 2
    assert ("sweep" in fake.getvalue()) is drawn


@pytest.mark.parametrize("stream, drawn", [(io.StringIO, False), (Terminal, True)])
def test_profile_and_verify_progress_only_on_a_terminal(stream, drawn, monkeypatch):
    from shufflekit.mechanisms import make
    from shufflekit.numeric.accountant import accountant
    from shufflekit.verify.runner import run_claims

    class Claim:  # what run_claims uses of a claim
        id = "test.progress"

        def run(self, ctx):
            return "ran"

    fake = stream()
    monkeypatch.setattr(sys, "stderr", fake)
    acc = accountant(make("rr", eps0=1), 20, method="hoeffding")
    acc.profile(epsilons=[0.1, 0.2, 0.3, 0.4, 0.5])
    assert ("hoeffding" in fake.getvalue()) is drawn
    assert run_claims([Claim()], progress=True) == ["ran"]
    assert ("verifying" in fake.getvalue()) is drawn


def test_command_line_sweep_draws_no_bar_into_a_pipe(tmp_path, capfd):
    """Standard error captured (not a terminal): the summary line, and no bar."""
    from shufflekit.cli import main

    spec = tmp_path / "s.toml"
    spec.write_text(
        '[[grid]]\nmechanism = "krr"\nk = 2\neps0 = 1.0\nn = 50\n'
        'method = "blanket"\ndelta = [1e-6, 1e-3]\n'
    )
    assert (
        main(["sweep", str(spec), "--workers", "1", "--no-cache", "-o", str(tmp_path / "o.csv")])
        == 0
    )
    err = capfd.readouterr().err
    assert "2 points (0 cached, 2 computed, 0 errors)" in err
    assert "pt/s" not in err and "\r" not in err
