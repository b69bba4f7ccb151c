/**
 * More parts of Turkish company titles, for `risklookup generate` (company-names.ts). Apart from
 * word-lists.ts, whose lists the name-quality set also draws on (scripts/bench/quality-names.ts):
 * changing those would change that benchmark's questions.
 */

/** A list written as one comma-separated string (an entry may hold spaces; empty entries count). */
const list = (text: string): string[] => text.split(',').map((s) => s.trim());

/** Syllables and short stems that coined brand words are made of (`AK`+`SA`, `BOR`+`U`+`SAN`, `ER`+`KUR`+`TAŞ`). */
export const BRAND_SYLLABLES = list(
  'ak, al, ar, as, at, ay, az, ba, bal, bay, be, bel, ber, bil, bir, bo, bor, bu, bur, ca, can, cem, ce, çe, çi, da, dal, de, dem, der, do, ' +
    'dor, du, e, ef, ek, el, em, en, er, es, et, ev, fa, fer, fi, ga, gen, gö, gül, gü, gün, ha, han, he, hi, ıl, i, il, in, ka, kal, kan, kar, ' +
    'kay, ke, kem, ki, ko, kor, ku, kur, la, le, li, lin, ma, mak, mar, me, mer, met, mi, mo, mu, na, ne, net, ni, no, nur, o, ok, ol, on, or, ' +
    'öz, pa, pe, per, pi, po, ra, re, ri, ro, sa, sal, se, sel, ser, si, so, su, şa, şen, ta, tar, te, tek, ter, ti, to, tu, tur, u, ul, un, ü, ' +
    'ün, va, ve, vo, ya, yal, ye, yıl, yo, yu, za, ze, zer',
);

/** Endings of coined brand words; empty strings make the bare syllables likelier. */
export const BRAND_ENDINGS = list(', , , , san, taş, tek, kent, met, soy, han, teks, pa, ex, aş, sa, is, kon, kim, plast, tas, ay');

/** First names that families join into brand words (`BURAY`+`MERT`+`AŞ`). */
export const MORE_FIRST_NAMES = list(
  'Buray, Mert, Hatari, Günşen, Ercan, Erkan, Serkan, Volkan, Tolga, Emre, Burak, Onur, Kaan, Deniz, Selin, Ece, Cem, Can, Arda, Berk, Kerem, ' +
    'Oğuz, Tuncay, Levent, Sinan, Barış, Gökhan, Hakan, Cengiz, Nihat, Ferhat, Kadir, Recep, Cemal, Selim, Halil, Tuba, Nur, Derya, Sevgi, Gül, ' +
    'Ayten, Nermin, Filiz, Songül, Yasemin, Esra, Sibel, Aslı, Melek, Tülay, Bülent, Orhan, Erdal, Metin, Kemal, Fikret',
);

/** The two halves of compound family names (`Kara`+`kaya`, `Ak`+`yürek`, `Öz`+`demir`). */
export const SURNAME_HEADS = list(
  'Ak, Kara, Öz, Al, Ay, Er, Gök, Sarı, Demir, Yıl, Kızıl, Bay, Tok, Uz, Çelik, Kaya, Taş, Yurt, Bora, Can, Ergün, Gül, Kılıç, Koca, Köse, ' +
    'Orta, Şahin, Tekin, Yazı, Yeşil, Altın, Bozkurt, Doğru',
);
export const SURNAME_TAILS = list(
  'kaya, taş, soy, can, han, demir, oğlu, er, türk, yürek, dağ, yol, el, baş, su, bulut, tekin, gün, ay, yıldız, deniz, kan, men, sal, ses, ' +
    'tan, tepe, toprak, yiğit, doğan, kurt, arslan, çam',
);

/** Provinces, districts and regions beyond word-lists.ts's PLACES. */
export const MORE_PLACES = list(
  'Adıyaman, Afyon, Aksaray, Amasya, Ardahan, Artvin, Aydın, Balıkesir, Bartın, Batman, Bayburt, Bilecik, Bingöl, Bitlis, Bolu, Burdur, ' +
    'Çanakkale, Çankırı, Çorum, Düzce, Edirne, Elazığ, Erzincan, Giresun, Gümüşhane, Hakkari, Iğdır, Isparta, Kahramanmaraş, Karabük, Karaman, ' +
    'Kars, Kastamonu, Kırıkkale, Kırklareli, Kırşehir, Kilis, Kütahya, Mardin, Muğla, Muş, Nevşehir, Niğde, Ordu, Osmaniye, Rize, Siirt, Sinop, ' +
    'Sivas, Şanlıurfa, Şırnak, Tekirdağ, Tokat, Tunceli, Uşak, Yalova, Yozgat, Zonguldak, Kadıköy, Üsküdar, Beşiktaş, Şişli, Bakırköy, Pendik, ' +
    'Kartal, Maltepe, Ümraniye, Esenyurt, Bağcılar, Gebze, Çorlu, Çerkezköy, İnegöl, Gemlik, Nilüfer, Osmangazi, Yıldırım, Bornova, Karşıyaka, ' +
    'Torbalı, Kemalpaşa, Aliağa, Menemen, Çankaya, Keçiören, Yenimahalle, Sincan, Polatlı, Alanya, Manavgat, Kepez, Muratpaşa, Seyhan, Ceyhan, ' +
    'Tarsus, Erdemli, Silifke, İskenderun, Dörtyol, Akhisar, Turgutlu, Salihli, Ödemiş, Tire, Nazilli, Söke, Didim, Bodrum, Fethiye, Marmaris, ' +
    'Ereğli, Akşehir, Beyşehir, Ünye, Fatsa, Bafra, Çarşamba, Terme, Develi, Kozan, Karamürsel, Gölcük, İzmit, Derince, Körfez, Adapazarı, ' +
    'Hendek, Akyazı, Biga, Gönen, Bandırma, Edremit, Ayvalık, Burhaniye, Havran, Orhangazi, Yenişehir, Mudanya, Kestel, Susurluk, Serik',
);

/** Activity words of titles beyond word-lists.ts's SECTORS; real titles list one to five. */
export const MORE_ACTIVITIES = list(
  'Mühendislik, Müşavirlik, Otomasyon, Kiralama, Gayrimenkul, Emlak, Sağlık, Eğitim, Yapı, Taahhüt, Çimento, Makine, İmalat, Üretim, Dağıtım, ' +
    'Pazarlama, Oto, Otelcilik, Restoran, Hazır Yemek, Mimarlık, Dekorasyon, Elektromekanik, Isı, Yalıtım, Su Arıtma, Tesisat, Klima, Asansör, ' +
    'Vinç, İş Makineleri, Yedek Parça, Lastik, Akü, Ambalaj, Baskı, Yayıncılık, Medya, Film, Prodüksiyon, Kuyumculuk, Mücevherat, Optik, ' +
    'Mefruşat, Mensucat, Konfeksiyon, Örme, Boyahane, Dokuma, Trikotaj, Çorap, Tarım Ürünleri, Tohumculuk, Fide, Gübre, Zirai İlaç, Süt, Peynir, ' +
    'Et, Tavukçuluk, Yumurta, Balıkçılık, Unlu Mamuller, Pastacılık, Şekerleme, Çikolata, Makarna, Bakliyat, Baharat, Çay, Kahve, İçecek, ' +
    'Meşrubat, Maden Suyu, Mermer Granit, Taş Ocakları, Kum, Çakıl, Hazır Beton, Prefabrik, Çelik Konstrüksiyon, Alüminyum Doğrama, PVC, ' +
    'Cam Balkon, Mobilya Dekorasyon, Elektrikli Araç, Şarj, Güneş Enerjisi, Rüzgar Enerjisi, Doğalgaz, Tüp Gaz, Madeni Yağ, Kimyevi Maddeler, ' +
    'Temizlik Ürünleri, Kişisel Bakım, Parfümeri, Medikal Cihaz, Laboratuvar, Veteriner, Eczane Ürünleri, Telekomünikasyon, Yazılım Hizmetleri, ' +
    'Bilgi Teknolojileri, Veri Merkezi, Siber Güvenlik, E Ticaret, Perakende, Toptan Gıda, Market, Alışveriş Merkezleri, Otopark, Filo Kiralama, ' +
    'Rent A Car, Servis, Personel Taşımacılığı, Uluslararası Nakliyat, Ev Tekstili, Mutfak Eşyaları, Beyaz Eşya, Elektronik Cihazlar, Oyuncak, ' +
    'Spor Malzemeleri, Bisiklet, Motosiklet',
);

/** Words that follow the activities in many titles (`... Yatırımları`, `... Sistemleri`). */
export const MORE_EXTRAS = list(
  'Yatırımları, Teknolojileri, Çözümleri, Ürünleri, Hizmetleri, Sistemleri, İşletmeleri, Mamulleri, Malzemeleri, Grubu, Grup, Holding, ' +
    'Dış Ticaret, İç ve Dış Ticaret, Pazarlama, İthalat İhracat, Turizm, Enerji, Yatırım',
);

/** Legal forms as registers write them, in full and abbreviated. */
export const REGISTER_LEGAL_FORMS = list(
  'Anonim Şirketi, Limited Şirketi, Sanayi ve Ticaret Anonim Şirketi, Sanayi ve Ticaret Limited Şirketi, Ticaret Limited Şirketi, ' +
    'Ticaret Anonim Şirketi, Sanayi Ticaret Limited Şirketi, A.Ş., Ltd. Şti., San. ve Tic. A.Ş., San. ve Tic. Ltd. Şti., Tic. Ltd. Şti., ' +
    'Tic. A.Ş., İth. İhr. Ltd. Şti., Koll. Şti.',
);
