import AppstoreSvg from '@ant-design/icons-svg/inline-svg/outlined/appstore.svg?raw';
import BarChartSvg from '@ant-design/icons-svg/inline-svg/outlined/bar-chart.svg?raw';
import BgColorsSvg from '@ant-design/icons-svg/inline-svg/outlined/bg-colors.svg?raw';
import BugSvg from '@ant-design/icons-svg/inline-svg/outlined/bug.svg?raw';
import BuildSvg from '@ant-design/icons-svg/inline-svg/outlined/build.svg?raw';
import CompassSvg from '@ant-design/icons-svg/inline-svg/outlined/compass.svg?raw';
import EditSvg from '@ant-design/icons-svg/inline-svg/outlined/edit.svg?raw';
import FileExcelSvg from '@ant-design/icons-svg/inline-svg/outlined/file-excel.svg?raw';
import FilePdfSvg from '@ant-design/icons-svg/inline-svg/outlined/file-pdf.svg?raw';
import FileZipSvg from '@ant-design/icons-svg/inline-svg/outlined/file-zip.svg?raw';
import FormSvg from '@ant-design/icons-svg/inline-svg/outlined/form.svg?raw';
import GlobalSvg from '@ant-design/icons-svg/inline-svg/outlined/global.svg?raw';
import LinkSvg from '@ant-design/icons-svg/inline-svg/outlined/link.svg?raw';
import LockSvg from '@ant-design/icons-svg/inline-svg/outlined/lock.svg?raw';
import PartitionSvg from '@ant-design/icons-svg/inline-svg/outlined/partition.svg?raw';
import ReadSvg from '@ant-design/icons-svg/inline-svg/outlined/read.svg?raw';
import SnippetsSvg from '@ant-design/icons-svg/inline-svg/outlined/snippets.svg?raw';
import SwitcherSvg from '@ant-design/icons-svg/inline-svg/outlined/switcher.svg?raw';
import UnorderedListSvg from '@ant-design/icons-svg/inline-svg/outlined/unordered-list.svg?raw';
import WarningSvg from '@ant-design/icons-svg/inline-svg/outlined/warning.svg?raw';
import type { ReactNode } from 'react';
import type { ShowcaseIcon } from '../app/showcase-routes';

/** An icon of the @ant-design/icons set from its SVG file, drawn like antd's (`.anticon`). */
function svgIcon(svg: string): ReactNode {
  return (
    <span
      className="anticon showcase-icon"
      role="img"
      aria-hidden
      // biome-ignore lint/security/noDangerouslySetInnerHtml: the icon set's own SVG files, bundled at build time; no user input reaches it.
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}

/**
 * The showcase menu's icons (antd's ReadOutlined, CompassOutlined, …), a chunk of their own that
 * loads only while the SHOWCASE switch is on. They come from the icon set's SVG files rather than
 * the @ant-design/icons components: a component also used by one product page would otherwise
 * become shared and move into the icons chunk that the first dashboard loads.
 */
export const SHOWCASE_ICONS: Record<ShowcaseIcon, ReactNode> = {
  documentation: svgIcon(ReadSvg),
  guide: svgIcon(CompassSvg),
  lock: svgIcon(LockSvg),
  icon: svgIcon(AppstoreSvg),
  nested: svgIcon(PartitionSvg),
  example: svgIcon(FormSvg),
  edit: svgIcon(EditSvg),
  list: svgIcon(UnorderedListSvg),
  tab: svgIcon(SwitcherSvg),
  error: svgIcon(WarningSvg),
  bug: svgIcon(BugSvg),
  theme: svgIcon(BgColorsSvg),
  clipboard: svgIcon(SnippetsSvg),
  i18n: svgIcon(GlobalSvg),
  link: svgIcon(LinkSvg),
  component: svgIcon(BuildSvg),
  chart: svgIcon(BarChartSvg),
  excel: svgIcon(FileExcelSvg),
  zip: svgIcon(FileZipSvg),
  pdf: svgIcon(FilePdfSvg),
};
