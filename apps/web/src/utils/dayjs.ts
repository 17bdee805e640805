import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';

/**
 * dayjs in Chinese (month and weekday names, weeks starting on Monday): antd's date pickers use this
 * same instance, and their own texts come from the zh_CN locale of the shell's ConfigProvider.
 * Imported by the pages that have a date picker, so the dashboard doesn't load it.
 */
dayjs.locale('zh-cn');

export type { Dayjs } from 'dayjs';
export { dayjs };
