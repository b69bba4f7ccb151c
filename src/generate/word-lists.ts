/** Word lists for synthetic Turkish company names (`risklookup generate`). */
export const FAMILY_NAMES = [
  'Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Yıldırım', 'Öztürk', 'Aydın', 'Özdemir', 'Arslan', 'Doğan',
  'Kılıç', 'Aslan', 'Çetin', 'Kara', 'Koç', 'Kurt', 'Özkan', 'Şimşek', 'Polat', 'Özcan', 'Korkmaz', 'Çakır', 'Erdoğan',
  'Yavuz', 'Can', 'Acar', 'Şen', 'Aktaş', 'Güler', 'Yalçın', 'Güneş', 'Bozkurt', 'Bulut', 'Keskin', 'Ünal', 'Turan',
  'Gül', 'Özer', 'Işık', 'Kaplan', 'Avcı', 'Sarı', 'Tekin', 'Taş', 'Köse', 'Yüksel', 'Ateş', 'Aksoy', 'Karaca', 'Uçar',
  'Altun', 'Ekinci', 'Erdem', 'Akın', 'Tunç', 'Sezer', 'Karakaya', 'Başaran', 'Bayram', 'Durmaz', 'Eren', 'Gök',
  'İnce', 'Kocabaş', 'Oral', 'Önal', 'Sönmez', 'Tosun', 'Uysal', 'Vural', 'Yazıcı', 'Zengin', 'Akbulut', 'Karataş',
  'Çınar', 'Dinç', 'Ergün', 'Gündoğdu', 'Kalkan', 'Menteşe', 'Ocak', 'Pehlivan', 'Soylu', 'Topal', 'Uzun', 'Yaman',
];
export const FIRST_NAMES = [
  'Mehmet', 'Mustafa', 'Ahmet', 'Ali', 'Hüseyin', 'Hasan', 'İbrahim', 'İsmail', 'Osman', 'Yusuf', 'Murat', 'Ömer',
  'Fatma', 'Ayşe', 'Emine', 'Hatice', 'Zeynep', 'Elif', 'Meryem', 'Şerife', 'Sultan', 'Hülya', 'Gülsüm', 'Özlem',
];
export const PLACES = [
  'İstanbul', 'Ankara', 'İzmir', 'Bursa', 'Antalya', 'Konya', 'Adana', 'Gaziantep', 'Kocaeli', 'Mersin', 'Kayseri',
  'Eskişehir', 'Samsun', 'Trabzon', 'Denizli', 'Malatya', 'Erzurum', 'Sakarya', 'Manisa', 'Hatay', 'Anadolu', 'Marmara',
  'Ege', 'Karadeniz', 'Akdeniz', 'Trakya', 'Çukurova', 'Kapadokya', 'Boğaziçi', 'Toros', 'Fırat', 'Dicle', 'Uludağ',
  'Erciyes', 'Palandöken', 'Kaçkar', 'Bafra', 'Gediz', 'Meriç', 'Sakarya', 'Yeşilırmak', 'Kızılırmak', 'Ağrı', 'Van',
];
export const SECTORS = [
  'Lojistik', 'Nakliyat', 'Taşımacılık', 'Gıda', 'Tekstil', 'İnşaat', 'Otomotiv', 'Enerji', 'Kimya', 'Plastik',
  'Ambalaj', 'Mobilya', 'Metal', 'Makina', 'Elektrik', 'Elektronik', 'Tarım', 'Hayvancılık', 'Turizm', 'Madencilik',
  'Mermer', 'Cam', 'Kağıt', 'Medikal', 'İlaç', 'Kozmetik', 'Yazılım', 'Bilişim', 'Danışmanlık', 'Gümrük', 'Depolama',
  'Soğuk Zincir', 'Petrol', 'Akaryakıt', 'Demir Çelik', 'Alüminyum', 'Döküm', 'Boya', 'Seramik', 'Deri', 'Ayakkabı',
  'Hazır Giyim', 'Un', 'Yem', 'Süt Ürünleri', 'Et Ürünleri', 'Su Ürünleri', 'Kuruyemiş', 'Zeytinyağı', 'Fındık',
  'Pamuk', 'İplik', 'Halı', 'Orman Ürünleri', 'Kereste', 'Yapı Malzemeleri', 'Hırdavat', 'Kırtasiye', 'Matbaa',
  'Reklam', 'Güvenlik', 'Temizlik', 'Catering', 'Gemi', 'Denizcilik', 'Havacılık', 'Kargo', 'Kurye', 'Tur',
];
export const EXTRAS = [
  'Grup', 'Global', 'Uluslararası', 'Dış Ticaret', 'Pazarlama', 'Yatırım', 'Holding', 'Endüstri', 'Teknoloji',
  'Sistemleri', 'Hizmetleri', 'Ürünleri', 'Organizasyon', 'Mühendislik', 'Proje', 'Taahhüt',
];
export const LEGAL_FORMS = [
  'A.Ş.', 'Ltd. Şti.', 'San. ve Tic. A.Ş.', 'San. ve Tic. Ltd. Şti.', 'Tic. Ltd. Şti.', 'İth. İhr. Ltd. Şti.', 'Koll. Şti.',
];
export const CITIES = [
  'İstanbul', 'Ankara', 'İzmir', 'Bursa', 'Antalya', 'Konya', 'Adana', 'Gaziantep', 'Kocaeli', 'Mersin', 'Kayseri',
  'Eskişehir', 'Samsun', 'Trabzon', 'Denizli', 'Malatya', 'Erzurum', 'Sakarya', 'Manisa', 'Hatay', 'Tekirdağ', 'Edirne',
];
