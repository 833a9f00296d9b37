"""Thai words a line never breaks inside, though BudouX's Thai model cuts them.

BudouX (:mod:`kiosk.ui.linebreak`) cuts some common Thai words in two: ``ยก|เว้น``
("except"), ``ช|นะ`` ("win"), ``บัน|ทึก`` ("record").  These are the words of the
cabinet's Thai texts where its cut falls inside a word of the Thai dictionary (libthai's
``thbrk``), and the game's words written from English (:data:`LOANWORDS`);
:func:`kiosk.ui.linebreak.break_units` joins the pieces back.  The test
``tests/kiosk/ui/test_text_linebreak.py`` checks every Thai message against libthai's
dictionary, so a new text with another such word fails there until it is listed here.
"""

from __future__ import annotations

#: The game's words written from English (the dictionary does not know them).
LOANWORDS = frozenset({
    "อันเต้", "โฟร์การ์ด", "ฟูลเฮาส์", "ตั้งค่า", "โฮลเอ็ม", "โฮลเด็ม", "เฮดส์อัป", "แมนิเฟสต์", "บัตตอน", "เบิร์นอิน",
})

#: Whole words, each kept on one line.
THAI_WORDS: frozenset[str] = LOANWORDS | frozenset({
    'กุญแจ', 'ก่อนหน้า', 'ขัดข้อง', 'ข้าวหลามตัด', 'ควบคุม', 'คาสิโน', 'คู่แข่ง', 'จาก', 'ชนะ',
    'ชั่วคราว', 'ซอฟต์แวร์', 'ฐานะ', 'ดอกจิก', 'ดุเดือด', 'ตรวจสอบ', 'ตัวเลข', 'ตั้งต้น', 'ตั๋วแลกเงิน',
    'ติดขัด', 'ติดต่อ', 'ติดตั้ง', 'ถูกต้อง', 'ทดสอบ', 'ทั้งหมด', 'ทำให้', 'ทีหลัง', 'ที่นั่ง', 'ที่สุด',
    'ธนบัตร', 'บังคับ', 'บัญชี', 'บันทึก', 'ปลายทาง', 'ผิดพลาด', 'ผูกมัด', 'ผู้จัดการ',
    'พอดี', 'ภายใน', 'ยกเลิก', 'ยกเว้น', 'ยืดเยื้อ', 'ยืนยัน', 'รหัส', 'รองรับ', 'รับรอง', 'ล้มเหลว',
    'วงเงิน', 'วิธีการ', 'สถานะ', 'สัดส่วน', 'สีน้ำเงิน', 'ส่วนเกิน', 'หมายความ', 'หมายเลข',
    'หรือ', 'อัตโนมัติ', 'อันดับ', 'อัปเดต', 'เครือข่าย', 'เคลื่อนไหว', 'เจ้าของ',
    'เดียวกัน', 'เท็กซัส', 'เท่ากับ', 'เมื่อไร', 'เริ่มต้น', 'เรียก', 'เรียนรู้', 'เลือก',
    'เสร็จสิ้น', 'เอกสาร', 'เอาเปรียบ', 'แจ็กพอต', 'แต่ละ', 'โฟลเดอร์', 'ใช้งาน'
})
