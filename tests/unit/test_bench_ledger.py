"""bench/_ledger.py's pricing by AWS's rules: each item rounded up to 1 KB and doubled in a
transaction, and a GSI's entry inserted, removed, moved or left alone."""

from __future__ import annotations

from typing import Any

from bench_modules import load_bench

ledger = load_bench("_ledger")

KEYS = ("pk", "sk")
BOARD = ledger.Index("leaderboard", ("lb_pool", "lb_rating"), "INCLUDE", ("name", "games"))
QUEUE = ledger.Index("by_queue", ("queue", "queued"), "ALL")


def item(size: int = 10, **more: Any) -> dict[str, Any]:
    typed = {k: {"N": str(v)} if isinstance(v, int) else {"S": v} for k, v in more.items()}
    return {"pk": {"S": "PLAYER#a"}, "sk": {"S": "RATING#p"}, "d": {"S": "x" * size}, **typed}


def test_each_item_is_rounded_up_to_a_kilobyte_and_doubled_in_a_transaction() -> None:
    assert ledger.table_units(None, item(100), transactional=False) == 1
    assert ledger.table_units(None, item(100), transactional=True) == 2
    assert ledger.table_units(item(3000), item(100), transactional=True) == 6  # the larger one
    assert ledger.table_units(None, None, transactional=False) == 1  # a Delete of nothing


def test_a_sparse_index_holds_only_items_with_its_keys_and_what_it_projects() -> None:
    assert ledger.index_entry(item(), BOARD, KEYS) is None
    entry = ledger.index_entry(item(500, lb_pool="p", lb_rating=1500, name="Ana"), BOARD, KEYS)
    assert entry is not None and set(entry) == {"pk", "sk", "lb_pool", "lb_rating", "name"}


def test_an_index_entry_inserted_removed_moved_or_left_alone() -> None:
    out = item()
    on = item(lb_pool="p", lb_rating=1500, name="Ana", games=10)
    moved = item(lb_pool="p", lb_rating=1512, name="Ana", games=11)
    renamed = item(5000, lb_pool="p", lb_rating=1500, name="Bea", games=10)
    assert ledger.index_units(out, on, BOARD, KEYS) == 1
    assert ledger.index_units(on, out, BOARD, KEYS) == 1
    assert ledger.index_units(on, moved, BOARD, KEYS) == 2  # its sort key moved: delete and put
    assert ledger.index_units(on, renamed, BOARD, KEYS) == 1  # the 5 KB "d" is not projected
    assert ledger.index_units(on, on, BOARD, KEYS) == 0
    assert ledger.index_units(out, out, BOARD, KEYS) == 0


def test_an_index_that_projects_everything_pays_the_whole_item() -> None:
    ticket = item(3000, queue="q", queued=1)
    assert ledger.index_units(None, ticket, QUEUE, KEYS) == 3


class Canceled(Exception):
    def __init__(self, response: dict[str, Any]) -> None:
        self.response = response


def test_a_cancelled_transaction_names_its_reasons() -> None:
    err = Canceled(
        {
            "Error": {"Code": "TransactionCanceledException"},
            "CancellationReasons": [
                {"Code": "None"},
                {"Code": "ConditionalCheckFailed"},
                {"Code": "TransactionConflict"},
            ],
        }
    )
    assert ledger.cancellation(err) == "cancelled:ConditionalCheckFailed,TransactionConflict"
    assert ledger.cancellation(Canceled({"Error": {"Code": "Throttling"}})) == "Throttling"
