import type { Config } from '../../config.js';
import type { FileService } from '../files/service.js';
import type { ImageUpload } from '../files/upload.js';
import type { SettingsService } from '../settings/service.js';

/**
 * The customer-support contact shown in every customer's top bar: an operator uploads the QR image
 * and edits the text in the operator area; the environment's SUPPORT_QR_URL / SUPPORT_TEXT stay the
 * defaults. The image is a public file (kind `support`: a contact card, shared on purpose) under a
 * random name; the `supportQr` setting names the current one, and replacing it deletes the old.
 */
export function createSupportContact(
  settings: Pick<SettingsService, 'value' | 'setValue'>,
  files: Pick<FileService, 'save' | 'link' | 'find' | 'remove'>,
  defaults: Pick<Config, 'supportQrUrl' | 'supportText'>,
) {
  const currentQr = async () => {
    const id = await settings.value('supportQr');
    return id ? ((await files.find(id)) ?? null) : null;
  };

  async function contact() {
    const [qr, text] = await Promise.all([currentQr(), settings.value('supportText')]);
    return {
      supportQrUrl: qr ? (await files.link(qr)).url : defaults.supportQrUrl,
      supportText: text ?? defaults.supportText,
    };
  }

  async function dropQr() {
    const old = await currentQr();
    await settings.setValue('supportQr', null);
    if (old) await files.remove(old);
  }

  return {
    contact,
    async save(input: { supportText: string | null; removeQr: boolean }) {
      await settings.setValue('supportText', input.supportText);
      if (input.removeQr) await dropQr();
      return contact();
    },
    async uploadQr(image: ImageUpload) {
      const old = await currentQr();
      const row = await files.save('support', {
        companyId: null,
        data: image.data,
        fileName: image.fileName,
        mime: image.mime,
      });
      await settings.setValue('supportQr', row.id);
      if (old) await files.remove(old);
      return contact();
    },
  };
}

export type SupportContact = ReturnType<typeof createSupportContact>;
