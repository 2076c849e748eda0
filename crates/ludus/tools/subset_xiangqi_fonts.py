#!/usr/bin/env python3
"""Makes web/fonts/xiangqi-{pieces,text}.woff2: the few Chinese characters the
Xiangqi page draws (pieces, numerals, notation, the river), cut from Noto CJK
(SIL OFL 1.1, see web/fonts/OFL.txt) and renamed, as the OFL asks of a
modified version.

    apt-get download fonts-noto-cjk && dpkg -x fonts-noto-cjk_*.deb noto
    pip install fonttools brotli
    python3 crates/ludus/tools/subset_xiangqi_fonts.py noto/usr/share/fonts/opentype/noto

Add a character here (and run it again) when the page starts to show a new one.
"""

import pathlib
import sys

from fontTools import subset
from fontTools.ttLib import TTCollection

# Pieces (traditional and simplified), file numerals in both notations, the
# notation's verbs and positions, the river, the sides.
CHARS = (
    "帥帅將将仕士相象俥車车傌馬马炮砲包兵卒"
    "一二三四五六七八九１２３４５６７８９123456789"
    "前中后後进進退平楚河漢汉界紅红黑"
)
# The ECCO opening names above the move list (text face only), simplified and
# traditional: crates/xiangqi/src/ecco/openings.txt and flow.rs `traditional`.
ECCO_CHARS = (
    "上不两兩互人他仙先兑兌其列单單压壓双雙反右外头頭宫宮对對封局屏巡左底开開弃棄"
    "急或打拐指提横橫正步盘盤直缓緩背虎蛇补補角起路转轉边邊过過连連金钩鉤顺順"
    "风風飞飛骑騎高鸳鴛鸯鴦龟龜："
)
SC = 2  # the Simplified Chinese face in each collection
FACES = [
    ("NotoSerifCJK-Bold.ttc", "Ludus Xiangqi Pieces", "Bold", "xiangqi-pieces.woff2", CHARS),
    (
        "NotoSansCJK-Regular.ttc",
        "Ludus Xiangqi Text",
        "Regular",
        "xiangqi-text.woff2",
        CHARS + ECCO_CHARS,
    ),
]
KEPT_NAMES = {0, 13, 14}  # copyright, licence, licence URL


def rename(font, family, style):
    postscript = (family + "-" + style).replace(" ", "")
    full = family if style == "Regular" else f"{family} {style}"
    table = font["name"]
    table.names = [n for n in table.names if n.nameID in KEPT_NAMES]
    for name_id, value in [
        (1, family),
        (2, style),
        (3, f"{postscript};subset of Noto CJK"),
        (4, full),
        (5, "Version 2.001; subset for Ludus"),
        (6, postscript),
    ]:
        table.setName(value, name_id, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [postscript]
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = family


def main():
    source = pathlib.Path(sys.argv[1])
    out_dir = pathlib.Path(__file__).resolve().parent.parent / "web" / "fonts"
    options = subset.Options()
    options.flavor = "woff2"
    options.layout_features = []
    options.name_IDs = ["*"]
    for collection, family, style, out, chars in FACES:
        font = TTCollection(source / collection).fonts[SC]
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=chars)
        subsetter.subset(font)
        rename(font, family, style)
        font.flavor = "woff2"
        font.save(out_dir / out)
        print(out_dir / out)


if __name__ == "__main__":
    main()
