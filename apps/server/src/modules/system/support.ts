import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { SettingsService } from '../settings/service.js';
import type { FileStorage } from '../storage/local.js';

/** Public path of the uploaded support QR image; the name is random per upload, so it is cached for good. */
export const SUPPORT_QR_PATH = '/support-qr/';

interface StoredQr {
  key: string;
  mime: 'image/png' | 'image/jpeg';
}

/**
 * The customer-support contact shown in every customer's top bar: an operator uploads the QR image
 * and edits the text in the operator area; the environment's SUPPORT_QR_URL / SUPPORT_TEXT stay the
 * defaults. The image is public on purpose (it is a contact card), under a random name.
 */
export function createSupportContact(
  settings: Pick<SettingsService, 'value' | 'setValue'>,
  storage: FileStorage,
  defaults: Pick<Config, 'supportQrUrl' | 'supportText'>,
) {
  const storedQr = async (): Promise<StoredQr | null> => {
    const raw = await settings.value('supportQr');
    return raw ? (JSON.parse(raw) as StoredQr) : null;
  };
  const nameOf = (key: string) => key.slice(key.indexOf('/') + 1);

  async function contact() {
    const [qr, text] = await Promise.all([storedQr(), settings.value('supportText')]);
    return {
      supportQrUrl: qr ? `${SUPPORT_QR_PATH}${nameOf(qr.key)}` : defaults.supportQrUrl,
      supportText: text ?? defaults.supportText,
    };
  }

  async function dropQr() {
    const old = await storedQr();
    await settings.setValue('supportQr', null);
    if (old) await storage.delete(old.key);
  }

  return {
    contact,
    async save(input: { supportText: string | null; removeQr: boolean }) {
      await settings.setValue('supportText', input.supportText);
      if (input.removeQr) await dropQr();
      return contact();
    },
    async uploadQr(image: { mime: StoredQr['mime']; data: Buffer }) {
      const key = `support/${randomBytes(12).toString('base64url')}`;
      await storage.put(key, image.data);
      const old = await storedQr();
      await settings.setValue('supportQr', JSON.stringify({ key, mime: image.mime } satisfies StoredQr));
      if (old) await storage.delete(old.key);
      return contact();
    },
    /** The image behind a public name, only if it is the current one. */
    async open(name: string): Promise<{ data: Buffer; mime: string } | null> {
      const qr = await storedQr();
      if (!qr || nameOf(qr.key) !== name) return null;
      const data = await storage.get(qr.key);
      return data ? { data, mime: qr.mime } : null;
    },
  };
}

export type SupportContact = ReturnType<typeof createSupportContact>;
