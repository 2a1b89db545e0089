import type { Translation } from '../i18n.js';
import type { en } from './en.js';

/** The shell's Vietnamese messages. */
export const vi: Translation<typeof en> = {
  'shell.sections': 'Các mục',
  'shell.section.account': 'Tài khoản',
  'shell.section.knowledge': 'Tri thức',
  'shell.section.assistant': 'Trợ lý',
  'shell.section.verify': 'Xác minh',
  'shell.section.review': 'Hàng chờ duyệt',
  'shell.localNav': 'Các trang {product}',
  'shell.signIn': 'Đăng nhập',
  'shell.organization': 'Tổ chức',
  'shell.switch': 'Chuyển',
  'shell.theme': 'Giao diện',
  'shell.theme.dark': 'Giao diện tối',
  'shell.theme.light': 'Giao diện sáng',
  'shell.theme.switchTo.dark': 'Chuyển sang giao diện tối',
  'shell.theme.switchTo.light': 'Chuyển sang giao diện sáng',
  'shell.language': 'Ngôn ngữ',
  'shell.skip': 'Chuyển đến nội dung',
};
