import { Extension } from '@tiptap/react';

/**
 * Paragraph and heading alignment for the full rich-text editor. Tiptap's own text-align
 * extension is not published at the 3.34.0 the other Tiptap packages are pinned to (its newest,
 * 3.32.2, wants exactly @tiptap/core 3.32.2), so this is the same idea in a few lines: a global
 * `textAlign` attribute written as `style="text-align: …"`. Only the four known values are read or
 * written, so no other CSS can ride along in the style attribute.
 */
export const TEXT_ALIGNS = ['left', 'center', 'right', 'justify'] as const;
export type TextAlignValue = (typeof TEXT_ALIGNS)[number];

export const isTextAlign = (value: unknown): value is TextAlignValue =>
  typeof value === 'string' && (TEXT_ALIGNS as readonly string[]).includes(value);

const ALIGNABLE = ['heading', 'paragraph'];

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    textAlign: {
      /** Aligns the selected paragraphs and headings; 'left' (the default) drops the attribute. */
      setTextAlign: (alignment: TextAlignValue) => ReturnType;
    };
  }
}

export const TextAlign = Extension.create({
  name: 'textAlign',

  addGlobalAttributes() {
    return [
      {
        types: ALIGNABLE,
        attributes: {
          textAlign: {
            default: null,
            parseHTML: (element) => {
              const value = element.style.textAlign;
              return isTextAlign(value) && value !== 'left' ? value : null;
            },
            renderHTML: (attributes) =>
              isTextAlign(attributes.textAlign) ? { style: `text-align: ${attributes.textAlign}` } : {},
          },
        },
      },
    ];
  },

  addCommands() {
    return {
      setTextAlign:
        (alignment) =>
        ({ commands }) => {
          if (!isTextAlign(alignment)) return false;
          const value = alignment === 'left' ? null : alignment;
          return ALIGNABLE.map((type) => commands.updateAttributes(type, { textAlign: value })).some(Boolean);
        },
    };
  },
});
