/** Words of disputes by the reported company (D33): states, outcomes, how the company was identified. */
import { defineMessages } from './define.ts';

export const disputesMessages = defineMessages({
  'disputes.state.open': { en: 'With the operator', tr: 'Operatörde' },
  'disputes.state.awaiting_member': { en: "Awaiting the member's answer", tr: 'Üyenin yanıtı bekleniyor' },
  'disputes.state.decided': { en: 'Decided', tr: 'Karara bağlandı' },
  'disputes.outcome.upheld': { en: 'Record upheld', tr: 'Kayıt korundu' },
  'disputes.outcome.corrected': { en: 'Record corrected', tr: 'Kayıt düzeltildi' },
  'disputes.outcome.removed': { en: 'Record removed', tr: 'Kayıt kaldırıldı' },
  'disputes.method.kep': { en: 'KEP (registered e-mail)', tr: 'KEP (kayıtlı elektronik posta)' },
  'disputes.method.e_signature': { en: 'E-signature', tr: 'E-imza' },
  'disputes.method.notarised_letter': { en: 'Notarised letter', tr: 'Noter onaylı yazı' },
});
