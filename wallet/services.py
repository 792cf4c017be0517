"""Every balance change of the ledger. Nothing else writes to it.

Each service is one ``transaction.atomic`` block that locks the touched accounts
with ``select_for_update`` in primary-key order (so two transfers can never
deadlock), refuses to take a player account below zero, and is idempotent by
``reference``: a retry returns the original transaction and moves nothing; the
same reference with other amounts is refused.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from wallet.errors import InsufficientFunds, InvalidAmount, ReferenceConflict
from wallet.models import Account, Entry, Transaction

if TYPE_CHECKING:
    from casino.accounts.models import User


class Place(Protocol):
    """Where money sits or moves for: a table, a round. The wallet needs only its key."""

    @property
    def pk(self) -> Any: ...


Table = Place
Round = Place

MAX_AMOUNT = 10**12  # cents; far above any play-money figure, far below BigInteger


@dataclass(frozen=True)
class AccountKey:
    """An account named by its natural key; ``post`` finds (or opens) and locks it."""

    kind: str
    owner_id: int | None = None
    table_id: int | None = None

    def lookup(self) -> dict[str, object]:
        return {"kind": self.kind, "owner_id": self.owner_id, "table_id": self.table_id}

    def order(self) -> tuple[str, int, int]:
        return (self.kind, self.owner_id or 0, self.table_id or 0)


@dataclass(frozen=True)
class Leg:
    account: Account | AccountKey
    amount: int


def check_amount(amount: object) -> int:
    """An amount in cents must be a positive ``int`` of sane size."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount()
    if amount <= 0 or amount > MAX_AMOUNT:
        raise InvalidAmount()
    return amount


# Accounts -------------------------------------------------------------------


def _get_or_create_account(**lookup: object) -> Account:
    account = Account.objects.filter(**lookup).first()
    if account is not None:
        return account
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup)
    except IntegrityError:  # created by a concurrent request
        return Account.objects.get(**lookup)


def wallet_account(*, player: User) -> Account:
    return _get_or_create_account(kind=Account.Kind.WALLET, owner=player, table=None)


def stack_account(*, player: User, table: Table) -> Account:
    return _get_or_create_account(kind=Account.Kind.STACK, owner=player, table_id=table.pk)


def escrow_account(*, player: User, table: Table) -> Account:
    """The player's stakes in play at ``table``."""
    return _get_or_create_account(kind=Account.Kind.ESCROW, owner=player, table_id=table.pk)


def house_account(*, player: User, table: Table) -> Account:
    """The house's side of the player's play at ``table``."""
    return _get_or_create_account(kind=Account.Kind.HOUSE, owner=player, table_id=table.pk)


def issuer_account() -> Account:
    return _get_or_create_account(kind=Account.Kind.ISSUER, owner=None, table=None)


# Keys for ``post``, which resolves and locks them in one query.


def _wallet(player: User) -> AccountKey:
    return AccountKey(Account.Kind.WALLET.value, player.pk, None)


def _stack(player: User, table: Table) -> AccountKey:
    return AccountKey(Account.Kind.STACK.value, player.pk, table.pk)


def _escrow(player: User, table: Table) -> AccountKey:
    return AccountKey(Account.Kind.ESCROW.value, player.pk, table.pk)


def _house(player: User, table: Table) -> AccountKey:
    return AccountKey(Account.Kind.HOUSE.value, player.pk, table.pk)


_ISSUER = AccountKey(Account.Kind.ISSUER.value, None, None)


# The one writer -------------------------------------------------------------


def _fingerprint(pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: dict[int, int] = {}
    for account_id, amount in pairs:
        merged[account_id] = merged.get(account_id, 0) + amount
    return sorted((k, v) for k, v in merged.items() if v != 0)


def _lock_accounts(
    legs: Sequence[Leg], locked_rows: Sequence[dict[str, Any]] | None = None
) -> tuple[dict[int, Account], dict[AccountKey, Account]]:
    """Lock every account of ``legs`` in primary-key order, in one query; the accounts by
    id and by key.

    Legs naming an account by its key are resolved by the same query; an account
    that does not exist yet is opened first (in key order) and the lock repeated.
    ``locked_rows``: what the caller's own run of :func:`accounts_lock` answered (the
    locks held, the balances read under them), so the locking read is not run again.
    """
    ids = sorted({leg.account.pk for leg in legs if isinstance(leg.account, Account)})
    keys = sorted(
        {leg.account for leg in legs if isinstance(leg.account, AccountKey)},
        key=AccountKey.order,
    )
    for attempt in range(2):
        if attempt == 0 and locked_rows is not None:
            accounts = [
                Account.from_db(
                    connection.alias, _LOCKED_COLUMNS, [row[c] for c in _LOCKED_COLUMNS]
                )
                for row in locked_rows
            ]
        else:
            accounts = _select_for_update(ids, keys)
        locked = {account.pk: account for account in accounts}
        if any(pk not in locked for pk in ids):
            raise RuntimeError("an account the caller locked is not among its rows")
        by_key = {AccountKey(a.kind, a.owner_id, a.table_id): a for a in locked.values()}
        missing = [key for key in keys if key not in by_key]
        if not missing:
            break
        if attempt:  # opened above, yet not found: cannot happen
            raise RuntimeError("ledger account missing")
        for key in missing:
            _get_or_create_account(**key.lookup())
    return locked, by_key


# The ledger's two statements per posting, written out. Built by the ORM they cost some
# 2.8 ms (the locking read: a Q per account key) and 2.5 ms (``bulk_update``'s CASE for
# two rows) of CPU on the benchmark machine, twice a round; written out, 0.5 and 0.35 ms.
# The same rows in the same order under the same locks; ``created_at`` is left deferred.

_LOCKED_COLUMNS = ["id", "kind", "owner_id", "table_id", "balance"]


def _select_for_update(ids: Sequence[int], keys: Sequence[AccountKey]) -> list[Account]:
    """``Account.objects.select_for_update()`` of these ids and keys, by id."""
    with connection.cursor() as cursor:
        cursor.execute(*_lock_sql(ids, keys))
        rows = cursor.fetchall()
    return [Account.from_db(connection.alias, _LOCKED_COLUMNS, row) for row in rows]


def _lock_sql(ids: Sequence[int], keys: Sequence[AccountKey]) -> tuple[str, list[Any]]:
    where: list[str] = []
    params: list[int | str] = []
    if ids:
        where.append(f"id IN ({', '.join(['%s'] * len(ids))})")
        params += ids
    for key in keys:
        parts = ["kind = %s"]
        params.append(key.kind)
        for column, value in (("owner_id", key.owner_id), ("table_id", key.table_id)):
            if value is None:
                parts.append(f"{column} IS NULL")
            else:
                parts.append(f"{column} = %s")
                params.append(value)
        where.append(f"({' AND '.join(parts)})")
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    sql = (
        f"SELECT {', '.join(_LOCKED_COLUMNS)} FROM {_accounts_table()}"  # noqa: S608
        f" WHERE {' OR '.join(where)} ORDER BY id{lock}"
    )
    return sql, params


def accounts_lock(*, table: Table, players: Sequence[User], house: bool) -> tuple[str, list[Any]]:
    """The locking read of a round's accounts at ``table`` (each player's stack, escrow
    and, for a settlement, house), built but not run: SQL and parameters.

    For a round's step that runs it with its own writes (one round trip,
    ``baccarat.db.write_together``) and hands the rows it answered to
    :func:`wallet_stake` or :func:`wallet_settle_all` as ``locked``. The same locks in
    the same order as theirs; an account that does not exist yet is opened by them."""
    keys = {key for player in players for key in (_stack(player, table), _escrow(player, table))}
    if house:
        keys |= {_house(player, table) for player in players}
    return _lock_sql([], sorted(keys, key=AccountKey.order))


def _balances_update(accounts: Sequence[Account]) -> tuple[str, list[int]]:
    """``Account.objects.bulk_update(accounts, ["balance"])`` as one ``UPDATE``: its SQL
    and parameters."""
    cases = " ".join(["WHEN %s THEN %s"] * len(accounts))
    sql = (
        f"UPDATE {_accounts_table()} SET balance = CASE id {cases} END"  # noqa: S608
        f" WHERE id IN ({', '.join(['%s'] * len(accounts))})"
    )
    params = [value for a in accounts for value in (a.pk, a.balance)] + [a.pk for a in accounts]
    return sql, params


def _write_balances(accounts: Sequence[Account]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(*_balances_update(accounts))


def _write(
    txns: Sequence[Transaction], entries: Sequence[Entry], accounts: Sequence[Account]
) -> None:
    """Insert ``txns`` and their ``entries`` and write the ``accounts``' new balances, under
    the locks the caller took (the last step of a posting; its refusals came before).

    On PostgreSQL in one statement: one round trip instead of three while the accounts'
    locks are held. Elsewhere (SQLite, one writer at a time) by the ORM. Written in part
    (an error), the caller's transaction must not commit.
    """
    try:
        if connection.vendor == "postgresql":
            _write_at_once(txns, entries, accounts)
            return
        Transaction.objects.bulk_create(txns)
        Entry.objects.bulk_create(entries)  # each takes its transaction's new id
        _write_balances(accounts)
    except BaseException:
        transaction.set_rollback(True)
        raise


def _write_at_once(
    txns: Sequence[Transaction], entries: Sequence[Entry], accounts: Sequence[Account]
) -> None:
    """:func:`_write` as one statement of data-modifying ``WITH`` queries. The entries find
    their transaction by its reference (unique); the answer gives every new row its id."""
    now = timezone.now()
    params: list[Any] = []
    for txn in txns:
        txn.created_at = now
        params += [txn.kind, txn.reference, txn.player_id, txn.round_id, now]
    for entry in entries:
        params += [entry.transaction.reference, entry.account_id, entry.amount, entry.balance_after]
    balances, balance_params = _balances_update(accounts)
    params += balance_params
    quote = connection.ops.quote_name
    sql = (
        f"WITH txn AS (INSERT INTO {quote(Transaction._meta.db_table)}"  # noqa: S608
        " (kind, reference, player_id, round_id, created_at)"
        f" VALUES {', '.join(['(%s, %s, %s, %s, %s)'] * len(txns))} RETURNING id, reference),"
        f" entry AS (INSERT INTO {quote(Entry._meta.db_table)}"
        " (transaction_id, account_id, amount, balance_after)"
        " SELECT txn.id, v.account_id, v.amount, v.balance_after FROM (VALUES"
        f" {', '.join(['(%s, %s::bigint, %s::bigint, %s::bigint)'] * len(entries))})"
        " AS v (reference, account_id, amount, balance_after)"
        " JOIN txn ON txn.reference = v.reference RETURNING id, transaction_id, account_id),"
        f" balance AS ({balances})"
        " SELECT txn.reference, txn.id, entry.account_id, entry.id"
        " FROM txn JOIN entry ON entry.transaction_id = txn.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    by_reference = {txn.reference: txn for txn in txns}
    entry_ids = {}
    for reference, txn_id, account_id, entry_id in rows:
        by_reference[reference].pk = txn_id
        entry_ids[reference, account_id] = entry_id
    for obj in [*txns, *entries]:
        obj._state.adding = False
        obj._state.db = connection.alias
    for entry in entries:
        entry.transaction = entry.transaction  # its transaction's new id
        entry.pk = entry_ids[entry.transaction.reference, entry.account_id]


def _accounts_table() -> str:
    return connection.ops.quote_name(Account._meta.db_table)


def _wanted(legs: Sequence[Leg], by_key: dict[AccountKey, Account]) -> list[tuple[int, int]]:
    """The legs as (account id, amount), merged per account, in id order."""
    return _fingerprint(
        ((leg.account if isinstance(leg.account, Account) else by_key[leg.account]).pk, leg.amount)
        for leg in legs
    )


def _check_legs(reference: str, legs: Sequence[Leg]) -> None:
    if not reference or len(reference) > 120:
        raise ReferenceConflict()
    if sum(leg.amount for leg in legs) != 0:
        raise ValueError("ledger legs must sum to zero")
    if not legs:
        raise InvalidAmount()


def post(
    *,
    kind: str,
    reference: str,
    legs: Sequence[Leg],
    player: User | None = None,
    round: Round | None = None,
    first: bool = False,
    locked: Sequence[dict[str, Any]] | None = None,
) -> Transaction:
    """Write one balanced transaction; the primitive every service uses.

    ``first``: the caller holds the lock that makes this reference new (a round's stake
    while the round row is locked in BETTING, its settlement while it is LOCKED), so the
    look for an original is skipped; the unique reference still refuses a second one.
    ``locked``: the caller ran the locking read itself (:func:`accounts_lock`), in its
    transaction; its rows.

    The returned transaction carries ``posted_entries``: its entries with their
    accounts (the original's on a replay).

    Called inside a caller's ``transaction.atomic`` (a round step), it runs in that
    transaction instead of a savepoint of its own: every refusal is raised before the
    first write, and a failure after it dooms the caller's whole transaction, so no
    half-written transaction can ever be committed.
    """
    _check_legs(reference, legs)
    if transaction.get_connection().in_atomic_block:
        return _post(
            kind=kind,
            reference=reference,
            legs=legs,
            player=player,
            round=round,
            first=first,
            locked_rows=locked,
        )
    if locked is not None:
        raise RuntimeError("locked accounts are held by the caller's transaction")
    with transaction.atomic():
        return _post(
            kind=kind, reference=reference, legs=legs, player=player, round=round, first=first
        )


def _post(
    *,
    kind: str,
    reference: str,
    legs: Sequence[Leg],
    player: User | None,
    round: Round | None,
    first: bool,
    locked_rows: Sequence[dict[str, Any]] | None = None,
) -> Transaction:
    # Locks first, in primary-key order: a concurrent retry with the same
    # reference waits here and then sees the committed original below.
    locked, by_key = _lock_accounts(legs, locked_rows)
    wanted = _wanted(legs, by_key)
    if not wanted:
        raise InvalidAmount()
    existing = None if first else Transaction.objects.filter(reference=reference).first()
    if existing is not None:
        entries = list(existing.entries.select_related("account"))
        done = _fingerprint((entry.account_id, entry.amount) for entry in entries)
        if done != wanted or existing.kind != kind:
            raise ReferenceConflict()
        existing.posted_entries = entries  # type: ignore[attr-defined]
        return existing
    for account_id, amount in wanted:
        account = locked[account_id]
        if account.kind in Account.NON_NEGATIVE_KINDS and account.balance + amount < 0:
            raise InsufficientFunds()
    txn = Transaction(
        kind=kind,
        reference=reference,
        player=player,
        round_id=round.pk if round is not None else None,
    )
    entries = []
    for account_id, amount in wanted:
        account = locked[account_id]
        account.balance += amount
        entries.append(
            Entry(transaction=txn, account=account, amount=amount, balance_after=account.balance)
        )
    _write([txn], entries, [locked[account_id] for account_id, _ in wanted])
    txn.posted_entries = entries  # type: ignore[attr-defined]
    return txn


@dataclass(frozen=True)
class Posting:
    """One transaction for :func:`post_all`."""

    kind: str
    reference: str
    legs: Sequence[Leg]
    player: User | None = None
    round: Round | None = None


def post_all(
    postings: Sequence[Posting], locked_rows: Sequence[dict[str, Any]] | None = None
) -> list[Transaction]:
    """Write several balanced transactions at once, each as ``post(first=True)`` would:
    the caller's lock proves every reference new (a LOCKED round's settlement under the
    round's row lock). One locking read for all their accounts, one insert for the
    transactions, one for their entries, one update of the balances, in the caller's
    transaction; every refusal is raised before the first write. Each transaction's
    entries take the balances in the order given. ``locked_rows``: as :func:`post`'s
    ``locked``.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("post_all runs in the caller's transaction")
    if not postings:
        return []
    for posting in postings:
        _check_legs(posting.reference, posting.legs)
    locked, by_key = _lock_accounts(
        [leg for posting in postings for leg in posting.legs], locked_rows
    )
    wanted = [_wanted(posting.legs, by_key) for posting in postings]
    balances = {account_id: account.balance for account_id, account in locked.items()}
    for pairs in wanted:
        if not pairs:
            raise InvalidAmount()
        for account_id, amount in pairs:
            balances[account_id] += amount
            if locked[account_id].kind in Account.NON_NEGATIVE_KINDS and balances[account_id] < 0:
                raise InsufficientFunds()
    txns = [
        Transaction(
            kind=posting.kind,
            reference=posting.reference,
            player=posting.player,
            round_id=posting.round.pk if posting.round is not None else None,
        )
        for posting in postings
    ]
    entries: list[Entry] = []
    touched: dict[int, Account] = {}
    for txn, pairs in zip(txns, wanted, strict=True):
        posted = []
        for account_id, amount in pairs:
            account = touched[account_id] = locked[account_id]
            account.balance += amount
            posted.append(
                Entry(
                    transaction=txn, account=account, amount=amount, balance_after=account.balance
                )
            )
        txn.posted_entries = posted  # type: ignore[attr-defined]
        entries += posted
    _write(txns, entries, list(touched.values()))
    return txns


def _existing(reference: str, *, kind: str, player: User) -> Transaction | None:
    """The original of a retried "move everything" request, whose amount is not given."""
    existing = Transaction.objects.filter(reference=reference).first()
    if existing is not None and (existing.kind != kind or existing.player_id != player.pk):
        raise ReferenceConflict()
    return existing


# Services -------------------------------------------------------------------


def wallet_open_for_new_player(*, player: User) -> Transaction:
    """Credit a new player's wallet once with the starting chips."""
    return post(
        kind=Transaction.Kind.STARTING_CHIPS,
        reference=f"start:{player.pk}",
        legs=[
            Leg(_ISSUER, -settings.CASINO_STARTING_CHIPS),
            Leg(_wallet(player), settings.CASINO_STARTING_CHIPS),
        ],
        player=player,
    )


def wallet_deposit(*, player: User, amount: int, reference: str) -> Transaction:
    """Free play money from the cashier into the wallet (limits checked by the caller's
    service ``cashier_deposit``)."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.DEPOSIT,
        reference=reference,
        legs=[Leg(_ISSUER, -amount), Leg(_wallet(player), amount)],
        player=player,
    )


def wallet_rebuy(*, player: User, table: Table, amount: int, reference: str) -> Transaction:
    """Move money from the wallet to the player's stack at a table."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.REBUY,
        reference=reference,
        legs=[
            Leg(_wallet(player), -amount),
            Leg(_stack(player, table), amount),
        ],
        player=player,
    )


def wallet_cash_out(
    *, player: User, table: Table, reference: str, amount: int | None = None
) -> Transaction | None:
    """Move the stack (or part of it) back to the wallet. ``None`` if the stack is empty."""
    stack = stack_account(player=player, table=table)
    if amount is None:
        # A retry of "cash out everything" returns the original even when the
        # stack has changed since; recomputing the amount would be a conflict.
        existing = _existing(reference, kind=Transaction.Kind.CASH_OUT, player=player)
        if existing is not None:
            return existing
        stack.refresh_from_db(fields=["balance"])
        if stack.balance == 0:
            return None
        amount = stack.balance
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.CASH_OUT,
        reference=reference,
        legs=[Leg(stack, -amount), Leg(_wallet(player), amount)],
        player=player,
    )


def wallet_cash_out_all(*, player: User, table: Table) -> Transaction | None:
    """Move the whole stack at ``table`` back to the wallet; ``None`` if it is empty.

    Two requests at the same moment (a double click, two tabs, a player standing up while
    the croupier stands them up) cash out once: the stack's row is locked before its
    balance is read, so the second finds it empty. The reference names the stack and how
    many entries it had, so each cash-out of a stack's history has its own.
    """
    with transaction.atomic():
        stack = (
            Account.objects.select_for_update()
            .filter(kind=Account.Kind.STACK, owner=player, table_id=table.pk)
            .first()
        )
        if stack is None or stack.balance == 0:
            return None
        entries = Entry.objects.filter(account=stack).count()
        return post(
            kind=Transaction.Kind.CASH_OUT,
            reference=f"cashout:{stack.pk}:{entries}",
            legs=[Leg(stack, -stack.balance), Leg(_wallet(player), stack.balance)],
            player=player,
        )


def wallet_stake(
    *,
    player: User,
    table: Table,
    round: Round,
    amount: int,
    reference: str,
    first: bool = False,
    locked: Sequence[dict[str, Any]] | None = None,
) -> Transaction:
    """Escrow a committed stake: the player's stack to their stakes in play at the table.
    ``locked``: the rows of the caller's run of :func:`accounts_lock`."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.STAKE,
        reference=reference,
        legs=[
            Leg(_stack(player, table), -amount),
            Leg(_escrow(player, table), amount),
        ],
        player=player,
        round=round,
        first=first,
        locked=locked,
    )


def wallet_settle(
    *,
    player: User,
    table: Table,
    round: Round,
    stake: int,
    payout: int,
    reference: str,
    first: bool = False,
) -> Transaction:
    """Empty the escrowed ``stake``: ``payout`` to the stack, the difference to the house
    (the house's side of the player's play at the table).

    The house pays when the payout is above the stake, and keeps losses and
    commission when it is below.
    """
    return post(
        kind=Transaction.Kind.SETTLE,
        reference=reference,
        legs=_settle_legs(player=player, table=table, stake=stake, payout=payout),
        player=player,
        round=round,
        first=first,
    )


def _settle_legs(*, player: User, table: Table, stake: int, payout: int) -> list[Leg]:
    stake = check_amount(stake)
    if isinstance(payout, bool) or not isinstance(payout, int) or not 0 <= payout <= MAX_AMOUNT:
        raise InvalidAmount()
    legs = [Leg(_escrow(player, table), -stake)]
    if payout:
        legs.append(Leg(_stack(player, table), payout))
    if stake != payout:
        legs.append(Leg(_house(player, table), stake - payout))
    return legs


@dataclass(frozen=True)
class Settlement:
    player: User
    stake: int
    payout: int
    reference: str


def wallet_settle_all(
    *,
    table: Table,
    round: Round,
    settlements: Sequence[Settlement],
    locked: Sequence[dict[str, Any]] | None = None,
) -> list[Transaction]:
    """:func:`wallet_settle` for every player of a LOCKED round at once (its row lock
    held: the references are new), in a handful of statements (:func:`post_all`).
    ``locked``: the rows of the caller's run of :func:`accounts_lock`."""
    return post_all(
        [
            Posting(
                kind=Transaction.Kind.SETTLE,
                reference=item.reference,
                legs=_settle_legs(
                    player=item.player, table=table, stake=item.stake, payout=item.payout
                ),
                player=item.player,
                round=round,
            )
            for item in settlements
        ],
        locked,
    )


def escrowed_stakes(*, round: Round) -> dict[int, int]:
    """What each player's stake transaction of ``round`` moved to escrow (player id to
    cents), in one read."""
    rows = Entry.objects.filter(
        transaction__round_id=round.pk,
        transaction__kind=Transaction.Kind.STAKE,
        account__kind=Account.Kind.ESCROW,
    ).values_list("transaction__player_id", "amount")
    return {player_id: amount for player_id, amount in rows if player_id is not None}


def wallet_refund(
    *, player: User, table: Table, round: Round, stake: int, reference: str
) -> Transaction:
    """Give an escrowed stake back, for a void round."""
    stake = check_amount(stake)
    return post(
        kind=Transaction.Kind.REFUND,
        reference=reference,
        legs=[
            Leg(_escrow(player, table), -stake),
            Leg(_stack(player, table), stake),
        ],
        player=player,
        round=round,
    )


def wallet_practice_fund(*, player: User, table: Table, amount: int, reference: str) -> Transaction:
    """Issue practice chips straight to a practice table's stack; the wallet is untouched."""
    amount = check_amount(amount)
    return post(
        kind=Transaction.Kind.PRACTICE_FUND,
        reference=reference,
        legs=[
            Leg(_ISSUER, -amount),
            Leg(_stack(player, table), amount),
        ],
        player=player,
    )


def wallet_practice_return(*, player: User, table: Table, reference: str) -> Transaction | None:
    """Take a finished practice session's chips back to the issuer."""
    stack = stack_account(player=player, table=table)
    existing = _existing(reference, kind=Transaction.Kind.PRACTICE_RETURN, player=player)
    if existing is not None:
        return existing
    stack.refresh_from_db(fields=["balance"])
    if stack.balance == 0:
        return None
    return post(
        kind=Transaction.Kind.PRACTICE_RETURN,
        reference=reference,
        legs=[Leg(stack, -stack.balance), Leg(_ISSUER, stack.balance)],
        player=player,
    )
