#!/usr/bin/env python3
"""English names for the ECCO openings from their Chinese names, by glossary.

Usage: crates/xiangqi/tools/ecco_english.py < names.tsv > names_en.tsv
Input lines are `CODE<TAB>chinese` (the variation after a `：`); output lines
are `CODE<TAB>chinese<TAB>english`. Terms are matched longest first; the
script fails on a character it has no term for, so every name is covered.
"""
import sys

GLOSSARY = {
    "其他开局": "Other openings", "其他": "others", "局": "opening",
    "中炮": "Central Cannon", "五七炮": "Five-Seven Cannons", "五八炮": "Five-Eight Cannons",
    "五六炮": "Five-Six Cannons", "五九炮": "Five-Nine Cannons",
    "屏风马": "Screen Horses", "反宫马": "Reverse Palace Horses", "单提马": "Single Lifted Horse",
    "三步虎": "Three-Step Tiger", "鸳鸯炮": "Mandarin Duck Cannons", "龟背炮": "Turtle-Back Cannons",
    "炮封车": "Cannon Blocking Rook", "后补列炮": "Delayed Opposite Cannon", "列炮": "Opposite Cannon",
    "顺炮": "Same-Direction Cannon", "缓开车": "Delayed Rook", "横车": "Horizontal Rook",
    "直车": "Straight Rook", "过河车": "River-Crossing Rook", "巡河车": "River-Patrol Rook",
    "骑河车": "River-Riding Rook", "巡河炮": "River-Patrol Cannon", "过河炮": "River-Crossing Cannon",
    "七路马": "Seventh-File Horse", "边马": "Edge Horse", "正马": "Regular Horse",
    "马外盘河": "Horse Coiling Outside at River", "马盘河": "Horse Coiling at River",
    "两头蛇": "Two-Headed Snake", "仙人指路": "Pawn Opening", "飞相": "Elephant", "飞象": "Elephant",
    "相": "Elephant", "象": "Elephant", "先上仕": "Advisor First", "先上士": "Advisor First",
    "上仕": "Advisor", "上士": "Advisor", "士": "Advisor",
    "仕角炮": "Palace-Corner Cannon", "士角炮": "Palace-Corner Cannon", "过宫炮": "Cross-Palace Cannon",
    "起马局": "Horse opening", "起马": "Horse Opening", "仙人指路局": "Pawn opening", "卒底炮": "Pawn-Base Cannon", "兵底炮": "Pawn-Base Cannon",
    "金钩炮": "Golden Hook Cannon", "边炮": "Edge Cannon", "边兵": "Edge Pawn", "边卒": "Edge Pawn",
    "互进七兵": "Both Seventh Pawns", "互进三兵": "Both Third Pawns", "互进右马": "Both Right Horses",
    "互进边马": "Both Edge Horses", "进七兵": "Seventh Pawn", "进三兵": "Third Pawn",
    "进中兵": "Central Pawn", "进７卒": "Seventh Pawn", "进7卒": "Seventh Pawn", "进３卒": "Third Pawn",
    "连进７卒": "Seventh Pawn Twice", "连进7卒": "Seventh Pawn Twice",
    "不进三兵": "without Third Pawn", "不进左马": "without Left Horse", "急进左马": "Quick Left Horse",
    "进右马": "Right Horse", "进左马": "Left Horse", "右马": "Right Horse", "左马": "Left Horse",
    "对兵": "Opposing Pawns", "兑七兵": "Exchanging Seventh Pawn", "兑三兵": "Exchanging Third Pawn",
    "兑双兵": "Exchanging Both Pawns", "兑边卒": "Exchanging Edge Pawn", "兑７卒": "Exchanging Seventh Pawn",
    "兑直车": "Exchanging Straight Rooks", "平炮兑车": "Cannon Shift Exchanging Rooks",
    "平炮压马": "Cannon Shift Pinning Horse", "弃双兵": "Sacrificing Both Pawns",
    "炮打中卒": "Cannon Takes Central Pawn", "进炮打马": "Cannon Attacks Horse",
    "拐角马": "Corner-Turning Horse", "双直车": "Double Straight Rooks", "双横车": "Double Horizontal Rooks",
    "双炮过河": "Both Cannons Across River", "炮过河": "Cannon Across River", "炮巡河": "Cannon Patrolling River",
    "车巡河": "Rook Patrolling River", "退边炮": "Retreating Edge Cannon", "高右炮": "Raised Right Cannon",
    "高左炮": "Raised Left Cannon", "上右士": "Right Advisor", "过河": "Across River", "边相": "Edge Elephant",
    "顺相局": "Same-Side Elephant Opening", "列相局": "Opposite Elephant Opening", "上仕局": "Advisor Opening",
    "后补左马": "Delayed Left Horse", "左马盘河": "Left Horse Coiling at River", "右马盘河": "Right Horse Coiling at River",
    "左马外盘河": "Left Horse Coiling Outside at River",
    "右马外盘河": "Right Horse Coiling Outside at River", "飞左象": "Left Elephant", "飞右象": "Right Elephant", "飞左相": "Left Elephant",
    "飞右相": "Right Elephant", "或": "or", "对": "vs.", "转": "into", "红": "Red", "黑": "Black",
    "左": "Left", "右": "Right", "中": "Central", "巡河": "River Patrol",
}
TERMS = sorted(GLOSSARY, key=len, reverse=True)


def english(chinese: str) -> str:
    words, i = [], 0
    while i < len(chinese):
        for term in TERMS:
            if chinese.startswith(term, i):
                words.append(GLOSSARY[term])
                i += len(term)
                break
        else:
            raise SystemExit(f"no term for {chinese[i]!r} in {chinese!r}")
    text = " ".join(words)
    return text[0].upper() + text[1:]


def main() -> None:
    for line in sys.stdin:
        code, chinese = line.rstrip("\n").split("\t")
        parts = [english(p) for p in chinese.split("：")]
        print(f"{code}\t{chinese}\t{': '.join(parts)}")


if __name__ == "__main__":
    main()
