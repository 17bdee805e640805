import { ACTIVE_QR_STATES, OK_CODE, simCalls } from '@wxc/contract';

/**
 * The simulator's "phone": opening the QR link is scanning it; the person then confirms or cancels,
 * as on a real phone. Plain HTML and a small script (served from /sim/scan.js for the CSP).
 */
export const SCAN_PAGE_HTML = `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>模拟手机 · 扫码登录</title>
<style>
  * { box-sizing: border-box; }
  body { margin: 0; font-family: -apple-system, "PingFang SC", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif; background: #ededed; color: #191919; }
  .phone { max-width: 420px; margin: 0 auto; min-height: 100vh; background: #f7f7f7; display: flex; flex-direction: column; }
  header { padding: 14px 16px; font-size: 15px; color: #888; border-bottom: 1px solid #e5e5e5; display: flex; justify-content: space-between; }
  main { flex: 1; padding: 40px 24px; text-align: center; }
  img.avatar { width: 88px; height: 88px; border-radius: 12px; }
  h1 { font-size: 20px; margin: 16px 0 4px; }
  .sub { color: #888; font-size: 14px; margin: 0 0 28px; }
  .state { font-size: 15px; margin: 18px 0; min-height: 22px; }
  .state.err { color: #fa5151; }
  .code { font-size: 32px; letter-spacing: 8px; font-weight: 600; margin: 8px 0 16px; }
  button { display: block; width: 100%; max-width: 280px; margin: 12px auto; padding: 12px; font-size: 16px; border-radius: 8px; border: 0; cursor: pointer; }
  button.primary { background: #07c160; color: #fff; }
  button.plain { background: #fff; color: #191919; border: 1px solid #ddd; }
  button.link { background: none; color: #576b95; font-size: 14px; }
  input { width: 160px; padding: 10px; font-size: 20px; text-align: center; letter-spacing: 6px; border: 1px solid #ccc; border-radius: 8px; }
  [hidden] { display: none !important; }
  footer { padding: 16px; font-size: 12px; color: #aaa; text-align: center; }
</style>
</head>
<body>
<div class="phone">
  <header><span>模拟手机</span><span id="ttl"></span></header>
  <main>
    <img class="avatar" id="avatar" alt="" src="data:,">
    <h1 id="nickname">加载中…</h1>
    <p class="sub" id="device"></p>
    <div class="state" id="state"></div>
    <div id="verify" hidden>
      <p class="sub">新设备登录需要验证。请在下面输入本机显示的验证码：</p>
      <div class="code" id="code"></div>
      <input id="codeInput" inputmode="numeric" maxlength="4" autocomplete="one-time-code">
      <button class="primary" id="verifyBtn">提交验证</button>
    </div>
    <div id="confirm" hidden>
      <button class="primary" id="confirmBtn">确认登录</button>
      <button class="plain" id="cancelBtn">取消登录</button>
      <button class="link" id="verifyModeBtn">模拟「新设备需要验证」</button>
    </div>
  </main>
  <footer>这是微信 API 模拟器的手机端页面，用于演示扫码登录，不会登录真实微信。</footer>
</div>
<script src="/sim/scan.js"></script>
</body>
</html>`;

export const SCAN_PAGE_JS = `(() => {
  const id = location.pathname.split('/').pop();
  const $ = (x) => document.getElementById(x);
  const TEXT = {
    waiting: '正在扫码…',
    scanned: '请确认是否在该设备上登录',
    need_verify: '需要验证',
    confirmed: '已登录，可以关闭此页面',
    cancelled: '已取消登录',
    expired: '二维码已过期，请在电脑上刷新二维码',
  };
  let state = '';
  async function api(path, body) {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const json = await res.json();
    if (json.code !== ${JSON.stringify(OK_CODE)}) throw new Error(json.message || '操作失败');
    return json.data;
  }
  function show(s) {
    state = s.state;
    $('nickname').textContent = s.person.nickname;
    $('avatar').src = s.person.avatar;
    $('device').textContent = '登录设备：' + s.deviceName;
    const st = $('state');
    st.className = 'state' + (s.state === 'expired' || s.state === 'cancelled' ? ' err' : '');
    st.textContent = s.reason && s.state === 'cancelled' ? s.reason : TEXT[s.state] || s.state;
    $('confirm').hidden = s.state !== 'scanned';
    $('verify').hidden = s.state !== 'need_verify';
    $('code').textContent = s.verifyCode || '';
    $('ttl').textContent = s.expiresIn > 0 ? s.expiresIn + ' 秒后过期' : '';
  }
  function fail(err) {
    const st = $('state');
    st.className = 'state err';
    st.textContent = err.message;
  }
  async function refresh() {
    try {
      show(await api(${JSON.stringify(simCalls.scanStatus.path)}, { instanceId: id }));
    } catch (err) { fail(err); }
  }
  async function act(action, extra) {
    try {
      await api(${JSON.stringify(simCalls.scanAction.path)}, Object.assign({ instanceId: id, action }, extra || {}));
    } catch (err) { fail(err); return; }
    await refresh();
  }
  $('confirmBtn').onclick = () => act('confirm');
  $('cancelBtn').onclick = () => act('cancel');
  $('verifyModeBtn').onclick = () => act('confirm_verify');
  $('verifyBtn').onclick = () => act('verify', { code: $('codeInput').value.trim() });
  (async () => {
    await refresh();
    if (state === 'waiting') await act('scan');
    setInterval(() => { if (${JSON.stringify(ACTIVE_QR_STATES)}.includes(state)) refresh(); }, 2000);
  })();
})();
`;
