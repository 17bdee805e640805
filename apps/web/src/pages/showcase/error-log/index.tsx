import { Planned } from '../Planned';

export default function ErrorLogPlanned() {
  return (
    <Planned
      what="错误日志：生产环境中捕获的前端错误，上报到服务端并在此列出。"
      items={[
        '捕获 window 错误、未处理的 Promise 拒绝与 React 错误边界',
        '上报限流、限长、不含任何密钥；运营人员看到全部，其他人只看到自己的',
        '一个触发示例错误的按钮',
      ]}
    />
  );
}
