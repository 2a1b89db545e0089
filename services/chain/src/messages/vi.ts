import type { Translation } from '@xv/platform/i18n';
import type { en } from './en.js';

/** What the chain explorer's pages say, in Vietnamese. */
export const vi: Translation<typeof en> = {
  'explorer.title': 'Tra cứu chuỗi khối',
  'explorer.heading': 'Tra cứu giao dịch trên chuỗi khối',
  'explorer.apiReference': 'Tài liệu API',
  'explorer.intro':
    'Relayer của XV neo mã băm của các biên nhận đã niêm phong lên chuỗi khối này. Hãy tra cứu một giao dịch của relayer theo mã băm; trang xác minh của mỗi biên nhận đều có liên kết đến giao dịch của biên nhận đó.',
  'explorer.hash': 'Mã băm giao dịch',
  'explorer.lookUp': 'Tra cứu',
  'explorer.invalidHash': 'Hãy nhập mã băm giao dịch: 0x và 64 chữ số thập lục phân.',
  'tx.title': 'Giao dịch {hash}…',
  'tx.heading': 'Giao dịch',
  'tx.hash': 'Mã băm',
  'tx.chainId': 'ID chuỗi khối',
  'tx.status': 'Trạng thái',
  'tx.status.success': 'Thành công',
  'tx.status.reverted': 'Bị hoàn tác',
  'tx.status.pending': 'Đang chờ',
  'tx.block': 'Khối',
  'tx.notMined': 'chưa được ghi vào khối',
  'tx.minedAt': 'Ghi vào khối lúc',
  'tx.confirmations': 'Số xác nhận',
  'tx.from': 'Từ',
  'tx.byRelayer': '(relayer của XV)',
  'tx.to': 'Đến',
  'tx.contractCreation': '(tạo hợp đồng)',
  'tx.nonce': 'Nonce',
  'tx.data': 'Dữ liệu',
  'anchor.batch.one':
    'Giao dịch này neo gốc Merkle của một lô gồm {count} mã băm: mã băm SHA-256 của manifest một biên nhận do dịch vụ trust của XV niêm phong. Bằng chứng của biên nhận chứa đường dẫn từ mã băm của chính biên nhận lên đến gốc này.',
  'anchor.batch.other':
    'Giao dịch này neo gốc Merkle của một lô gồm {count} mã băm: mã băm SHA-256 của manifest các biên nhận do dịch vụ trust của XV niêm phong. Bằng chứng của mỗi biên nhận chứa đường dẫn từ mã băm của chính biên nhận đó lên đến gốc này.',
  'anchor.single':
    'Giao dịch này neo một mã băm: mã băm SHA-256 của manifest một biên nhận do dịch vụ trust của XV niêm phong.',
  'anchor.root': 'Gốc Merkle',
  'anchor.fingerprint': 'Mã băm',
  'anchor.mined': 'Ghi vào khối',
  'anchor.inBlock': 'tại khối {block}',
  'anchor.notMined': 'Chưa được ghi vào khối.',
};
