import type { Translation } from '@xv/platform/i18n';
import type { en } from './en.js';

/** What the trust service's pages and browser scripts say, in Vietnamese. */
export const vi: Translation<typeof en> = {
  'frame.nav.verify': 'Xác minh bằng chứng',
  'frame.footer': 'Bằng chứng được ký bằng P-256 và secp256k1; khóa công khai có tại {keys}.',

  'drop.title': 'Xác minh bằng chứng',
  'drop.heading': 'Xác minh tệp bằng chứng',
  'drop.intro':
    'Tệp được kiểm tra ngay tại đây, trong trình duyệt của bạn, và không bao giờ được tải lên. Trang chỉ tải về khóa công khai của các bên phát hành.',
  'drop.zone': 'Thả tệp bằng chứng vào đây, hoặc',
  'drop.choose': 'chọn tệp bằng chứng (.json):',
  'drop.result': 'Kết quả xác minh',

  'check.checking': 'Đang kiểm tra {name}…',
  'check.failed': '✘ Không kiểm tra được bằng chứng: {error}',
  'check.manifestHash': 'Mã băm bản kê khai',
  'check.issuerNamed': 'Bên phát hành nêu trong bằng chứng',
  'check.keyPublished': 'Khóa do bên phát hành đó công bố',
  'check.yes': 'có',
  'check.no': 'không',
  'check.p256': 'Chữ ký P-256',
  'check.secp256k1': 'Chữ ký secp256k1',
  'check.signature.valid': 'hợp lệ',
  'check.signature.invalid': 'không hợp lệ',
  'check.anchorPath': 'Đường dẫn neo',
  'check.anchorPath.leads': 'dẫn tới gốc {root}',
  'check.anchorPath.broken': 'không dẫn tới gốc mà neo nêu ({problem})',
  'check.anchored': 'Đã neo trên chuỗi khối',
  'check.anchored.yes.one': 'có, {count} xác nhận, giao dịch {tx}',
  'check.anchored.yes.other': 'có, {count} xác nhận, giao dịch {tx}',
  'check.anchored.no': 'chưa ({problem})',

  'verdict.theIssuer': 'bên phát hành',
  'verdict.valid':
    '✔ Hợp lệ: các chữ ký khớp và bản ghi còn nguyên vẹn. Bản ghi được ký bằng một khóa mà {issuer} đã công bố.',
  'verdict.notValid': '✘ Không hợp lệ: {words}',
  'verdict.reason.tampered': 'Bản kê khai đã bị thay đổi sau khi được niêm phong.',
  'verdict.reason.bad_signature':
    'Một chữ ký không khớp với khóa mà {issuer} đã công bố — không thể chứng minh bằng chứng này đến từ {issuer}.',
  'verdict.reason.unknown_issuer':
    '{issuer} chưa công bố khóa nào tại đây — không có gì cho thấy bằng chứng này đến từ {issuer}.',
  'verdict.reason.unknown_issuer_key':
    'Được ký bằng một khóa mà {issuer} chưa từng công bố — bằng chứng này không phải của {issuer}.',
  'verdict.reason.demo_issuer':
    'Được ký bởi bên phát hành dùng thử, chỉ được tin cậy ở chế độ dùng thử — đây không phải bằng chứng của một tổ chức thật.',
  'verdict.reason.key_retired':
    '{issuer} đã ngừng dùng khóa ký bằng chứng này trước ngày mà bằng chứng ghi — bằng chứng không hợp lệ.',
  'verdict.reason.key_not_yet_valid':
    'Bằng chứng không ghi ngày, hoặc ghi một ngày trước khi {issuer} tạo khóa đã ký nó — bằng chứng không hợp lệ.',
  'verdict.malformed.notJson': 'Tệp không phải là JSON.',
  'verdict.malformed.notProof': 'Tệp không phải là bằng chứng XV ({claim, signatures}).',
  'verdict.malformed.extraFields': 'Bằng chứng có các trường không mong đợi: {fields}',

  'receipt.title': 'Biên nhận {id}',
  'receipt.heading': 'Biên nhận niêm phong',
  'receipt.issuer': 'Bên phát hành',
  'receipt.organization': 'Tổ chức',
  'receipt.identityVerified': 'Đã xác minh danh tính',
  'receipt.identityVerified.yes': 'Có (đã xác minh KYC)',
  'receipt.identityVerified.no': 'Không',
  'receipt.signInLevel': 'Mức đăng nhập',
  'receipt.record': 'Bản ghi',
  'receipt.receipt': 'Biên nhận',
  'receipt.model': 'Mô hình',
  'receipt.tier': 'Cấp độ',
  'receipt.issuedAt': 'Thời điểm phát hành',
  'receipt.outputHash': 'Mã băm đầu ra',
  'receipt.inputHash': 'Mã băm đầu vào',
  'receipt.manifestHash': 'Mã băm bản kê khai',
  'receipt.integrity': 'Tính toàn vẹn',
  'receipt.integrity.intact': 'nguyên vẹn',
  'receipt.integrity.tampered': 'đã bị thay đổi sau khi niêm phong',
  'receipt.integrity.unverified': 'chưa kiểm tra được',
  'receipt.anchor': 'Neo trên chuỗi khối',
  'receipt.selfCheck':
    '{download} rồi tự xác minh trên {checker} hoặc theo các bước trong tài liệu về định dạng bằng chứng.',
  'receipt.download': 'Tải tệp bằng chứng',
  'receipt.checker': 'trang kiểm tra bằng chứng',

  'content.heading': 'Kiểm tra nội dung gốc',
  'content.intro':
    'Dán văn bản đã niêm phong, hoặc thả tệp gốc vào: mã băm SHA-256 của nội dung được tính ngay trong trình duyệt của bạn rồi so với mã băm đã niêm phong. Nội dung không bao giờ được gửi đi.',
  'content.paste': 'Dán nội dung',
  'content.checkPasted': 'Kiểm tra văn bản đã dán',
  'content.file': 'hoặc thả hay chọn tệp gốc (băm đúng từng byte của tệp):',
  'content.noscript':
    'Nếu không có JavaScript, hãy tự tính SHA-256 của tệp (ví dụ {command}) rồi so với mã băm đầu ra ở trên.',
  'content.checking': 'Đang kiểm tra…',
  'content.pasted': 'Văn bản đã dán',
  'content.namedFile': 'Tệp {name}',
  'content.noMatch': '✘ {what} không khớp với nội dung đã niêm phong: mã băm SHA-256 của nó là {hash}.',
  'content.match.output': '✔ {what} khớp với nội dung đã niêm phong: đúng là nội dung đã được niêm phong.',
  'content.match.input':
    '✔ {what} khớp với nội dung đã niêm phong (phần đầu vào): đúng là nội dung đã được niêm phong.',
  'content.match.output.json':
    '✔ {what} khớp với nội dung đã niêm phong (dưới dạng JSON, ở dạng chuẩn RFC 8785): đúng là nội dung đã được niêm phong.',
  'content.match.input.json':
    '✔ {what} khớp với nội dung đã niêm phong (phần đầu vào, dưới dạng JSON, ở dạng chuẩn RFC 8785): đúng là nội dung đã được niêm phong.',
  'content.failed': '✘ Không kiểm tra được nội dung: {error}',

  'anchor.none': 'Biên nhận này chưa được neo trên chuỗi khối.',
  'anchor.batched':
    'Mã băm bản kê khai được neo theo lô: giao dịch mang gốc Merkle của lô, và đường dẫn bên dưới đi từ biên nhận này tới gốc đó.',
  'anchor.direct': 'Chính mã băm bản kê khai đã được ghi lên chuỗi khối trong giao dịch bên dưới.',
  'anchor.onChain': 'Trên chuỗi khối',
  'anchor.onChain.yes.one': 'Có, {count} xác nhận',
  'anchor.onChain.yes.other': 'Có, {count} xác nhận',
  'anchor.onChain.no': 'Chưa ({problem})',
  'anchor.transaction': 'Giao dịch',
  'anchor.block': 'Khối',
  'anchor.root': 'Gốc của lô',
  'anchor.path': 'Đường dẫn Merkle',
  'anchor.steps.one': '{count} bước',
  'anchor.steps.other': '{count} bước',
  'anchor.problem.pending': 'đang chờ được đưa vào một khối',
  'anchor.problem.not_found': 'chuỗi khối không có giao dịch này',
  'anchor.problem.reverted': 'giao dịch đã bị hoàn tác',
  'anchor.problem.wrong_data': 'giao dịch mang một mã băm khác',
  'anchor.problem.wrong_sender': 'giao dịch không do dịch vụ chuyển tiếp của XV gửi',
  'anchor.problem.chain_unreachable': 'không kết nối được với chuỗi khối',
  'anchor.problem.wrong_ref': 'neo này thuộc về một bằng chứng khác',
  'anchor.problem.wrong_path': 'đường dẫn không dẫn tới gốc',
  'anchor.problem.malformed': 'neo không đúng định dạng',

  'attestation.title': 'Chứng thực {id}',
  'attestation.heading': 'Chứng thực',
  'attestation.valid': '✔ Hợp lệ: chữ ký EIP-712 khớp với một khóa mà {issuer} đã công bố.',
  'attestation.issuer': 'Bên phát hành',
  'attestation.unnamedIssuer': 'một tổ chức mà dịch vụ định danh không nêu tên',
  'attestation.attester': 'Địa chỉ bên chứng thực',
  'attestation.schema': 'Lược đồ',
  'attestation.subject': 'Chủ thể',
  'attestation.digest': 'Mã băm của tuyên bố',
  'attestation.signed': 'Bản chứng thực EAS ngoài chuỗi khối đã ký (phiên bản 2) có tại {link}.',

  'notFound.title': 'Không tìm thấy',
  'notFound.heading': 'Không có gì để xác minh ở đây',
  'notFound.none': 'Không có biên nhận hay chứng thực nào có mã {id}.',
  'notFound.checker': 'Bạn có tệp bằng chứng? Hãy kiểm tra trên {checker}.',
};
