// @vitest-environment happy-dom
import { Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { TextAlign } from './text-align';

let editor: Editor | undefined;
afterEach(() => editor?.destroy());

const make = (content: string) => {
  editor = new Editor({ extensions: [StarterKit, TextAlign], content });
  return editor;
};

describe('TextAlign', () => {
  it('centres the paragraph under the cursor and writes it as a style', () => {
    const e = make('<p>一段</p>');
    e.commands.setTextAlign('center');
    expect(e.getHTML()).toBe('<p style="text-align: center;">一段</p>');
  });

  it('left is the default: it drops the attribute', () => {
    const e = make('<h2 style="text-align: right">标题</h2>');
    expect(e.getHTML()).toBe('<h2 style="text-align: right;">标题</h2>');
    e.commands.setTextAlign('left');
    // (the starter kit keeps a paragraph after a last heading)
    expect(e.getHTML()).toBe('<h2>标题</h2><p></p>');
  });

  it('keeps nothing but the four alignments from pasted or typed HTML', () => {
    const e = make('<p style="text-align: start; color: red">甲</p><p style="text-align: justify;">乙</p>');
    expect(e.getHTML()).toBe('<p>甲</p><p style="text-align: justify;">乙</p>');
    expect(e.commands.setTextAlign('left; background: url(x)' as never)).toBe(false);
  });
});
