"""The web seat's words in English, Japanese, Thai and French.

:data:`WORDS` holds each phrase in the four languages (the seeds' wording where they give
it).  Hand and rank names are the cabinet's own (its gettext catalogue in
``kiosk/locale``), so a phone names a hand exactly as the cabinet does.
:func:`catalogue` gives the whole table for the page.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

from engine.hands.categories import HandCategory

LANGS = ("en", "ja", "th", "fr")
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"

#: key -> (English, Japanese, Thai, French); ``{name}`` placeholders are filled by the page.
WORDS: dict[str, tuple[str, str, str, str]] = {
    "title": ("A game of Texas Hold’em", "テキサスホールデムの対局", "เกมเท็กซัสโฮลเด็ม", "Une partie de Texas Hold’em"),
    "invited": ("You’re invited to game {code}. Type your name: everyone at the table sees it.",
                "対局 {code} に招待されました。名前を入力してください（テーブルの全員に見えます）。",
                "คุณได้รับเชิญเข้าเกม {code} พิมพ์ชื่อของคุณ: ทุกคนที่โต๊ะจะเห็นชื่อนี้",
                "Vous êtes invité à la partie {code}. Tapez votre nom : toute la table le verra."),
    "name": ("Your name", "名前", "ชื่อของคุณ", "Votre nom"),
    "take_seat": ("Take a seat", "席に着く", "นั่งที่โต๊ะ", "Prendre place"),
    "code_prompt": ("Type the game code shown on the cabinet.", "台に表示されたゲームコードを入力してください。",
                    "พิมพ์รหัสเกมที่แสดงบนตู้", "Tapez le code de partie affiché sur la borne."),
    "open": ("Open", "開く", "เปิด", "Ouvrir"),
    "game": ("Game {code}", "対局 {code}", "เกม {code}", "Partie {code}"),
    "waiting": ("Waiting…", "待っています…", "กำลังรอ…", "En attente…"),
    "seconds": ("{s} s", "{s}秒", "{s} วินาที", "{s} s"),
    "host_waiting": ("The host has left: the game waits {min} min for them.",
                     "主催者が抜けました。あと{min}分、戻るのを待ちます。",
                     "เจ้าของเกมออกไปแล้ว: เกมจะรออีก {min} นาที",
                     "L’hôte est parti : la partie l’attend encore {min} min."),
    "waiting_host": ("Waiting… the game starts when the host taps Start.",
                     "待っています…主催者が開始を押すと始まります。",
                     "กำลังรอ… เกมจะเริ่มเมื่อเจ้าภาพกดเริ่ม",
                     "En attente… la partie commence quand l’hôte appuie sur Commencer."),
    "starts_in": ("The game starts by itself in {s} s.", "{s}秒後に対局が自動で始まります。",
                  "เกมจะเริ่มเองใน {s} วินาที", "La partie commence d’elle-même dans {s} s."),
    "host_gone": ("The host has not come back: the game is stopped. Keep this page open; it goes on if the "
                  "host returns.",
                  "主催者が戻っていません。対局は止まっています。このページを開いたままにすると、戻ったときに続きます。",
                  "เจ้าภาพยังไม่กลับมา: เกมหยุดอยู่ เปิดหน้านี้ไว้ เกมจะเล่นต่อเมื่อเจ้าภาพกลับมา",
                  "L’hôte n’est pas revenu : la partie est arrêtée. Gardez cette page ouverte ; elle reprend "
                  "s’il revient."),
    "portrait": ("Texas Hold’em needs the phone held upright. Turn it round to play.",
                 "テキサスホールデムは電話を縦にして遊びます。縦向きにしてください。",
                 "เท็กซัสโฮลเด็มต้องถือโทรศัพท์ตั้งตรง หมุนโทรศัพท์เพื่อเล่น",
                 "Le Texas Hold’em se joue téléphone à la verticale. Tournez-le pour jouer."),
    "fold": ("Fold", "フォールド", "หมอบ", "Se coucher"),
    "check": ("Check", "チェック", "เช็ค", "Parole"),
    "call": ("Call {amount}", "コール {amount}", "คอล {amount}", "Suivre {amount}"),
    "bet_to": ("Bet {amount}", "ベット {amount}", "เบท {amount}", "Miser {amount}"),
    "raise_to": ("Raise to {amount}", "{amount} にレイズ", "เรส์เป็น {amount}", "Relancer à {amount}"),
    "bet": ("Bet", "ベット", "เบท", "Miser"),
    "raise": ("Raise", "レイズ", "เรส์", "Relancer"),
    "all_in": ("All in", "オールイン", "ออลอิน", "Tapis"),
    "least": ("Least", "最小", "ต่ำสุด", "Minimum"),
    "half": ("½ pot", "½ ポット", "½ พอต", "½ pot"),
    "three_quarters": ("¾ pot", "¾ ポット", "¾ พอต", "¾ pot"),
    "pot_preset": ("Pot", "ポット", "พอต", "Pot"),
    "back": ("Back", "戻る", "กลับ", "Retour"),
    "next_hand": ("Next hand", "次のハンド", "มือถัดไป", "Main suivante"),
    "next_in": ("The next hand starts by itself in {s} s", "{s} 秒後に次のハンドが始まります",
                "มือถัดไปจะเริ่มเองใน {s} วินาที", "La main suivante commence d’elle-même dans {s} s"),
    "waiting_for": ("Waiting for {names}", "{names} を待っています", "กำลังรอ {names}", "En attente de {names}"),
    "leave": ("Leave the game", "対局から抜ける", "ออกจากเกม", "Quitter la partie"),
    "leave_q": ("Leave the game?", "対局から抜けますか？", "ออกจากเกมไหม?", "Quitter la partie ?"),
    "leave_body": ("The computer plays your seat for the rest of the game.",
                   "以後ずっとコンピュータがあなたの席を打ちます。",
                   "คอมพิวเตอร์จะเล่นแทนคุณจนจบเกม",
                   "L’ordinateur jouera votre place jusqu’à la fin de la partie."),
    "stay": ("Stay", "続ける", "เล่นต่อ", "Rester"),
    "leave_yes": ("Leave", "抜ける", "ออก", "Quitter"),
    "left": ("You left the game. The computer plays your seat.",
             "対局から抜けました。コンピュータがあなたの席を打ちます。",
             "คุณออกจากเกมแล้ว คอมพิวเตอร์เล่นแทนคุณ",
             "Vous avez quitté la partie. L’ordinateur joue votre place."),
    "hand_n": ("Hand {n}", "ハンド {n}", "มือที่ {n}", "Main {n}"),
    "blinds": ("Blinds {small}/{big}", "ブラインド {small}/{big}", "บลายด์ {small}/{big}", "Blindes {small}/{big}"),
    "blinds_in": ("up in {n}", "あと {n} で上昇", "ขึ้นในอีก {n}", "hausse dans {n}"),
    "your_turn": ("Your turn", "あなたの番です", "ตาของคุณ", "À vous"),
    "turn_of": ("{name}’s turn", "{name} の番", "ตาของ {name}", "À {name}"),
    "pot": ("Pot {amount}", "ポット {amount}", "พอต {amount}", "Pot {amount}"),
    "main_pot": ("Main {amount}", "メイン {amount}", "พอตหลัก {amount}", "Principal {amount}"),
    "side_pot": ("Side {amount}", "サイド {amount}", "พอตรอง {amount}", "Annexe {amount}"),
    "host": ("Host", "主催者", "เจ้าภาพ", "Hôte"),
    "computer": ("Computer", "コンピュータ", "คอมพิวเตอร์", "Ordinateur"),
    "away": ("Computer playing", "コンピュータが代打ち中", "คอมพิวเตอร์เล่นแทน", "L’ordinateur joue"),
    "you": ("You", "あなた", "คุณ", "Vous"),
    "out": ("Out", "敗退", "ตกรอบ", "Éliminé"),
    "last_sb": ("Small blind", "SB", "สมอลบลายด์", "Petite blinde"),
    "last_bb": ("Big blind", "BB", "บิ๊กบลายด์", "Grosse blinde"),
    "last_fold": ("Fold", "フォールド", "หมอบ", "Couché"),
    "last_check": ("Check", "チェック", "เช็ค", "Parole"),
    "last_call": ("Call", "コール", "คอล", "Suit"),
    "last_bet": ("Bet", "ベット", "เบท", "Mise"),
    "last_raise": ("Raise", "レイズ", "เรส์", "Relance"),
    "last_allin": ("All in", "オールイン", "ออลอิน", "Tapis"),
    "wins": ("{name} wins {amount}", "{name} が {amount} を獲得", "{name} ได้ {amount}", "{name} gagne {amount}"),
    "over": ("TOURNAMENT OVER", "トーナメント終了", "จบการแข่งขัน", "TOURNOI TERMINÉ"),
    "came": ("You came {place} of {players}", "{players}人中{place}でした", "คุณได้ที่ {place} จาก {players} คน",
             "Vous finissez {place} sur {players}"),
    "hands_played": ("Hands played", "プレイしたハンド", "มือที่เล่น", "Mains jouées"),
    "hands_won": ("Hands won", "勝ったハンド", "มือที่ชนะ", "Mains gagnées"),
    "biggest_pot": ("Biggest pot", "最大獲得ポット", "พอตใหญ่สุด", "Plus gros pot"),
    "best_hand": ("Best hand", "最高の役", "มือดีที่สุด", "Meilleure main"),
    "standings": ("Final standings", "最終順位", "อันดับสุดท้าย", "Classement final"),
    "download": ("Download results (JSON)", "結果をダウンロード（JSON）", "ดาวน์โหลดผล (JSON)",
                 "Télécharger les résultats (JSON)"),
    "keep": ("Keep this page: your result stays on it.", "このページを残せば結果が見られます。",
             "เก็บหน้านี้ไว้: ผลของคุณอยู่ที่นี่", "Gardez cette page : votre résultat y reste."),
    "reconnecting": ("Connection lost: trying again…", "接続が切れました。再接続しています…",
                     "การเชื่อมต่อหลุด: กำลังลองใหม่…", "Connexion perdue : nouvel essai…"),
    "ended": ("This game has ended.", "この対局は終わりました。", "เกมนี้จบแล้ว", "Cette partie est terminée."),
    "no_game": ("No game has this code.", "このコードの対局はありません。", "ไม่มีเกมที่ใช้รหัสนี้",
                "Aucune partie n’a ce code."),
    "language": ("Language", "言語", "ภาษา", "Langue"),
    "refused": ("Not allowed: {detail}", "できません：{detail}", "ทำไม่ได้: {detail}", "Refusé : {detail}"),
    "r_move.turn": ("It is not your turn.", "あなたの番ではありません。", "ยังไม่ถึงตาของคุณ", "Ce n’est pas à vous."),
    "r_move.stale": ("The table has moved on: look again.", "卓が進みました。もう一度見てください。",
                     "โต๊ะเดินไปแล้ว: ดูอีกครั้ง", "La table a avancé : regardez à nouveau."),
    "r_seat.full": ("Every seat is taken.", "空いている席がありません。", "ที่นั่งเต็มแล้ว", "Toutes les places sont prises."),
    "r_name": ("Type a name of 1 to 16 letters, without control characters.",
               "1〜16文字の名前を入力してください（制御文字は使えません）。",
               "พิมพ์ชื่อ 1 ถึง 16 ตัวอักษร ห้ามมีอักขระควบคุม",
               "Tapez un nom de 1 à 16 caractères, sans caractères de contrôle."),
    "r_seat.unknown": ("This seat is not yours any more: take a new one.", "この席はもうあなたの席ではありません。",
                       "ที่นั่งนี้ไม่ใช่ของคุณแล้ว", "Cette place n’est plus la vôtre."),
}

_PLACES = ("1st", "2nd", "3rd", "4th", "5th", "6th")
_RANKS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens", "jacks", "queens",
           "kings", "aces")
_HANDS = {
    HandCategory.HIGH_CARD: "High card, {rank}",
    HandCategory.PAIR: "Pair of {ranks}",
    HandCategory.TWO_PAIR: "Two pair, {ranks} and {ranks2}",
    HandCategory.THREE_OF_A_KIND: "Three of a kind, {ranks}",
    HandCategory.STRAIGHT: "Straight, {rank} high",
    HandCategory.FLUSH: "Flush, {rank} high",
    HandCategory.FULL_HOUSE: "Full house, {ranks} over {ranks2}",
    HandCategory.FOUR_OF_A_KIND: "Four of a kind, {ranks}",
    HandCategory.STRAIGHT_FLUSH: "Straight flush, {rank} high",
    HandCategory.ROYAL_FLUSH: "Royal flush",
}


def _translator(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    return gettext.translation("uth", str(LOCALE_DIR), languages=[lang], fallback=True)


@cache
def catalogue() -> dict[str, dict[str, Any]]:
    """lang -> {"words": {key: text}, "hands": [template by category], "rank": [...],
    "ranks": [...], "of_ranks": [...], "places": [...]}."""
    out: dict[str, dict[str, Any]] = {}
    for i, lang in enumerate(LANGS):
        tr = _translator(lang)
        out[lang] = {
            "words": {key: texts[i] for key, texts in WORDS.items()},
            "hands": [tr.pgettext("hand", _HANDS[HandCategory(c)]) for c in range(len(_HANDS))],
            "rank": [tr.pgettext("rank", r) for r in _RANKS],
            "ranks": [tr.pgettext("ranks", r) for r in _PLURAL],
            "of_ranks": [tr.pgettext("of ranks", f"of {r}") for r in _PLURAL],
            "places": [tr.pgettext("place", p) for p in _PLACES],
        }
    return out
