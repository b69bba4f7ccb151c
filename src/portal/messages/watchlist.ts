/** Texts of the member's watchlist page and the search page's watch button (D31). English and Turkish, same keys. */
import { defineMessages } from './define.ts';

export const watchlistMessages = defineMessages({
  'watchlist.nav': { en: 'Watchlist', tr: 'İzleme listesi' },
  'watchlist.title': { en: 'Watchlist', tr: 'İzleme listesi' },
  'watchlist.intro': {
    en: "Your member's watchlist: when what a search answers for one of these companies changes, risklookup tells your webhook endpoints and the event feed. The list shows the companies you watch, not what is known of them: search a company to see that.",
    tr: 'Üyenizin izleme listesi: bu şirketlerden biri için aramanın verdiği yanıt değiştiğinde risklookup webhook adreslerinize ve olay akışına bildirir. Liste, izlediğiniz şirketleri gösterir, onlar hakkında bilinenleri değil: bunun için şirketi arayın.',
  },
  'watchlist.room': { en: '{count} of {cap} companies watched.', tr: '{cap} şirketten {count} tanesi izleniyor.' },
  'watchlist.none': {
    en: 'No company watched yet: add one below, or with the Watch button of a search result.',
    tr: 'Henüz izlenen şirket yok: aşağıdan ya da bir arama sonucundaki İzle düğmesiyle ekleyin.',
  },
  'watchlist.country': { en: 'Country', tr: 'Ülke' },
  'watchlist.tax_id': { en: 'Tax ID', tr: 'Vergi numarası' },
  'watchlist.since': { en: 'Watched since (Turkey time)', tr: 'İzlenme başlangıcı (Türkiye saati)' },
  'watchlist.actions': { en: 'Actions', tr: 'İşlemler' },
  'watchlist.remove': { en: 'Remove', tr: 'Çıkar' },
  'watchlist.remove_for': { en: 'Remove {country} {tax_id} from the watchlist', tr: '{country} {tax_id} şirketini izleme listesinden çıkar' },
  'watchlist.add_title': { en: 'Add a company', tr: 'Şirket ekle' },
  'watchlist.add_hint': {
    en: 'Adding tells you nothing about the company: the list never says whether a company has reports.',
    tr: 'Eklemek şirket hakkında bir şey söylemez: liste, bir şirketin bildirimi olup olmadığını hiçbir zaman göstermez.',
  },
  'watchlist.add': { en: 'Watch', tr: 'İzle' },
  'watchlist.added': { en: '{country} {tax_id} is now on the watchlist.', tr: '{country} {tax_id} artık izleme listesinde.' },
  'watchlist.already': { en: '{country} {tax_id} was already on the watchlist.', tr: '{country} {tax_id} zaten izleme listesindeydi.' },
  'watchlist.removed': { en: '{country} {tax_id} is no longer watched.', tr: '{country} {tax_id} artık izlenmiyor.' },
  'watchlist.not_on': { en: '{country} {tax_id} was not on the watchlist.', tr: '{country} {tax_id} izleme listesinde değildi.' },
  'watchlist.full': {
    en: 'The watchlist is at its cap of {cap}: remove a company to add another.',
    tr: 'İzleme listesi {cap} sınırında: yenisini eklemek için bir şirketi çıkarın.',
  },
  'watchlist.next': { en: 'Next page', tr: 'Sonraki sayfa' },
  'watchlist.first': { en: 'First page', tr: 'İlk sayfa' },
  'watchlist.inactive': {
    en: 'Your membership is not active: the watchlist is paused; contact the association.',
    tr: 'Üyeliğiniz etkin değil: izleme listesi durduruldu; birlikle iletişime geçin.',
  },
  'watchlist.watch': { en: 'Watch', tr: 'İzle' },
  'watchlist.watch_for': { en: 'Watch {name}', tr: '{name} şirketini izle' },
  'watchlist.watching': { en: 'Watching', tr: 'İzleniyor' },
});
