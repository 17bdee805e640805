/**
 * The filled icons of @ant-design/icons, as the SVG files of its icon set (@ant-design/icons-svg, the
 * package every @ant-design/icons component is generated from): strings in this chunk of their own,
 * so the gallery shares no module with the console's icons (which would move them into the chunk
 * the first dashboard loads).
 */
export default import.meta.glob<string>(
  '../../../../../../node_modules/@ant-design/icons-svg/inline-svg/filled/*.svg',
  {
    eager: true,
    query: '?raw',
    import: 'default',
  },
);
