"""Encodings and views pinned with the engine as it was before the split into subsystems (commit
ca324cf): ``encode`` of seeded matches must give the same bytes, and states encoded then must
decode to the same match (the same views, move records, last hand and result).

Format version 1 never changes meaning: a stored game written by any earlier engine must load.
"""

from __future__ import annotations

import hashlib
import json
import random

import pytest
from domino.engine import DRAW, PASS, Match, decode, encode, resolve_rules

AT = 1_700_000_000


def play(preset: str, players: int, seed: int, plies: int | None = None) -> Match:
    """A seeded match after ``plies`` random legal moves (None: to its end)."""
    m = Match.start(resolve_rules(preset, players), seed=seed, at=AT)
    rng = random.Random(seed)
    at = AT
    done = 0
    while m.status == "playing" and (plies is None or done < plies):
        legal = m.legal_moves()
        move = rng.choice(legal) if legal else (DRAW if m.can_draw() else PASS)
        at += rng.choice((0, 5, 300, 86_400))
        m.apply(m.turn, move, at)
        done += 1
    return m


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def digest(m: Match) -> str:
    """Everything a caller reads from a match, as JSON (key order included)."""
    seen: list[object] = [m.view(None)] + [m.view(s) for s in range(m.players)]
    seen += [m.moves(None), m.moves(0), m.last_hand(), m.result(), m.previous_hand_moves]
    return hashlib.sha256(json.dumps(seen).encode()).hexdigest()


#: preset, players, seed, then sha256 (first 32 hex digits) of encode() after the deal, after 40
#: plies and at the end of the match
ENCODINGS = [
    (
        "clasico",
        4,
        11,
        "ef7631314947df968d69fd143291a0a3",
        "42de35a7256b01c33efe06c9b3ed76fd",
        "9e077dd2f2920f038bf6f0722186156c",
    ),
    (
        "dos-jugadores",
        2,
        12,
        "8028473135f6f3cd1330f0355cefc771",
        "be2d9246394839c06e09b5621b9a1d48",
        "380a1975c2b2105326b3fb3f141242f5",
    ),
    (
        "parejas-111",
        4,
        13,
        "3851685028ace9f2fbe992c51edf1481",
        "f4f39a3303dbb7071afa1a5cde0b9583",
        "8fb01f8d8067d8c8fc74162ec0cbe203",
    ),
    (
        "pool",
        3,
        14,
        "d3866033bc39b421b6eac2447521e73a",
        "29696ea825dd79a5476a9f52d49c6289",
        "5f0f030f1b6e114f7007d814e1435b86",
    ),
    (
        "buho21",
        4,
        15,
        "e60181083d2f92be4d0b12062cca00fd",
        "4d93bbe3a46a944a7c42e7f8c1f6ac60",
        "0b54599b2b80dea0db152d671ce95423",
    ),
    (
        "multicolor-plus",
        3,
        16,
        "75b5faf0e7cef16292cd9593bb091cdb",
        "5402a3ff826b6251a35efc69be2fb42b",
        "38efcd990be7e7d3daa0d7bb103a69b7",
    ),
    (
        "cruzado",
        4,
        17,
        "ec9ea4c9ab239ba614370e43e6f53f2e",
        "93bb06f7e4d860bdcbc1b36eb7bc6dd8",
        "d512ea1e71b329dcc5af5e33ae6d2aa1",
    ),
    (
        "chipre",
        6,
        18,
        "1a98609f7f5626d5e95239ab77cdda4f",
        "bf71e46eafa091e268f40f4ea8044f55",
        "415d47db7ad790174d14edfb8f926185",
    ),
    (
        "ida-y-vuelta",
        2,
        19,
        "25b11cb50839b8eec44daedda930e300",
        "4c8339fca4847b3fa766bdc58478b535",
        "4c8339fca4847b3fa766bdc58478b535",
    ),
    (
        "infantil",
        3,
        20,
        "ab4cd245516de51cf4adf9e72459890a",
        "4e32f4be2ce4411dc81850c2362c7238",
        "4e32f4be2ce4411dc81850c2362c7238",
    ),
]


@pytest.mark.parametrize(("preset", "players", "seed", "dealt", "ply40", "end"), ENCODINGS)
def test_encode_gives_the_pinned_bytes(
    preset: str, players: int, seed: int, dealt: str, ply40: str, end: str
) -> None:
    assert sha(encode(play(preset, players, seed, 0))) == dealt
    assert sha(encode(play(preset, players, seed, 40))) == ply40
    assert sha(encode(play(preset, players, seed))) == end


#: states encoded before the split: preset, players, seed, plies played, the bytes (hex), the
#: digest of everything read from the decoded match
STORED = [
    (
        "clasico",
        4,
        21,
        60,
        (
            "01100c0100000000290700005506000500040024014600280200139420000051f1733e0030008001"
            "340000180000000240001002000000000000040091feb472d0d9001afea7b400c16113a01d90a982"
            "e9b0098012c85441aa40a60a14c326602c40e02a005700a4080021b109d85101106213901c360182"
            "2a60360580a4808cb0095008009302992a40121001d8446402992a0990a90219150438801a009812"
            "c854018200480a00826213301390a9024415"
        ),
        "8895e06980441db156d5d426f8de2652b17ca82acdd21607e28881bfcbf5b4e2",
    ),
    (
        "cruzado",
        3,
        22,
        45,
        (
            "010c0c010049000029070000590600e00012b0000054142085020005a00c2fc1410d00cc86011c00"
            "b0011601008000000000000010e94f2b07150cb041ffa605500d36016202820564aa02854d04079b"
            "082e90a902ee1451c626a02c205305920100312053053502992a1004002c6213d00890a902210140"
            "a4026254806100a004c854416f0a500fc8541160006c28203b6c02d45400"
        ),
        "352015335205a633b81527a835840b0369df00a91d703b9b9dc67c193a2d469d",
    ),
    (
        "pool",
        4,
        23,
        None,
        (
            "01100c0100000020290700045d1580010080100100400800000000020000080a58800f300932c480"
            "700040001a00800c0000204400001002000000800000000810e94f2b07eec107a2f1878127101600"
            "3b02003305a4854d80640098100008621390a72244804c55286113a1884d806240a60a460500a040"
            "a60a7203807200180b00582a20256c024452c8804c15c0a9906013209b0256033255026c42a20081"
            "b009980940000e0c0164aa00470064090035153012209014802490a9824801a01036010329005a05"
            "64ab00a9b009d8159b00e41490210064c426621600b301025121004814202c90a982c11480994202"
            "00b9b0090200"
        ),
        "3df8a1b6e47b8272c10492d7f9a1320f009cb5aa8524123976d61c06f7286f67",
    ),
    (
        "chipre",
        5,
        24,
        30,
        (
            "011516006089000029070000610280e4064008008000820000001003220000c00013000000000400"
            "10000209580810000000000000000000000091feb47210007820362840ad28607328809c00003429"
            "209d00402101992a584a0060150a803c40a60ae22236018a0d0013109b00a2a60090864d4016c126"
            "40f501602b6113406900806f0010911420f3804c15ac386c02481c3601f00600790cc854811c51c0"
            "a0033255c04614808cb009"
        ),
        "5e483c93d88ea48ef0d16f1cc625858001358f2574c069828b97902c899b97da",
    ),
]


@pytest.mark.parametrize(("preset", "players", "seed", "plies", "data", "seen"), STORED)
def test_states_encoded_before_decode_the_same(
    preset: str, players: int, seed: int, plies: int | None, data: str, seen: str
) -> None:
    blob = bytes.fromhex(data)
    m = decode(blob)
    assert digest(m) == seen
    assert encode(m) == blob
    assert encode(play(preset, players, seed, plies)) == blob
