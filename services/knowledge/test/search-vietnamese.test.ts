/**
 * Search in Vietnamese and English over HTTP, on every database: a query finds
 * text whether or not either side wrote the diacritics (đ folded to d), an exact
 * diacritic match ranks above a folded one, composed and decomposed Unicode meet
 * (and the text returned is composed), the syllables of a word in order earn
 * phrase credit, and English words meet their other forms.
 *
 * The documents below share as few folded syllables as possible (no "đã", "hồ",
 * "năng", "bạn", "độ"…), so each query has one right answer among them.
 */
import { describeEachDatabase } from '@xv/platform/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { publish, search, startWorld, type World } from './helpers.js';

interface Hit {
  docId: string;
  title: string;
  headingPath: string;
  text: string;
  score: number;
}

const DOCUMENTS = {
  saigonOffice: '# Văn phòng phía Nam\n\nVăn phòng phía Nam nằm ở Thành phố Hồ Chí Minh, gần chợ Bến Thành.',
  hanoiOffice: '# Văn phòng phía Bắc\n\nVăn phòng phía Bắc nằm ở thủ đô Hà Nội, gần phố cổ.',
  danangOffice: '# Văn phòng miền Trung\n\nVăn phòng miền Trung nằm ở Đà Nẵng, gần cầu Rồng.',
  danangWarehouse: '# Kho hang mien Trung\n\nKho hang mien Trung nam o da nang, gan san bay.',
  // Both fold to "ban do": "bản đồ" is a map, "bán đồ" is selling things.
  officeMap: '# Lối vào\n\nỞ lối vào có bản đồ văn phòng cho khách mới.',
  usedGoodsSale: '# Chợ phiên\n\nMỗi thứ sáu có chợ phiên bán đồ cũ cho nhân viên.',
  // "bảo hiểm xã hội" (social insurance) as a phrase, and the same four syllables scattered.
  socialInsurance:
    '# Phúc lợi\n\nCông ty đóng bảo hiểm xã hội cho mọi nhân viên chính thức từ tháng đầu tiên.',
  scatteredSyllables: '# Sự kiện\n\nHội nghị có xã giao, bảo vệ và bài nói về nguy hiểm.',
  vehicleService: '# Bảo dưỡng xe\n\nXe công ty được bảo dưỡng định kỳ mỗi quý tại xưởng.',
  billing:
    '# Billing\n\nFinance sends invoices on the first of the month; every invoiced amount is due in 30 days.',
  remoteWork: '# Remote work\n\nThe remote work policy allows two days at home each week.',
  parking: '# Parking\n\nStaff parking is free behind the building for bicycles and cars.',
};
type Name = keyof typeof DOCUMENTS | 'leaveDecomposed';

/** Pushed in decomposed form (NFD): every diacritic a separate combining mark. */
const LEAVE_RULES = '# Quy định nghỉ phép\n\nNhân viên được nghỉ phép mười hai ngày mỗi kỳ làm việc.';

describeEachDatabase('search in Vietnamese and English', (target) => {
  let world: World;
  const docs = {} as Record<Name, string>;
  beforeAll(async () => {
    world = await startWorld(target);
    for (const [name, content] of Object.entries(DOCUMENTS))
      docs[name as Name] = await publish(world, `${name}.md`, content);
    docs.leaveDecomposed = await publish(world, 'leaveDecomposed.md', LEAVE_RULES.normalize('NFD'));
  });

  async function hitsFor(query: string): Promise<Hit[]> {
    const found = await search(world, world.tokens.read, query, 10);
    expect(found.status, query).toBe(200);
    return found.body.hits;
  }
  const ranking = async (query: string) => (await hitsFor(query)).map((h) => h.docId);
  const rankOf = (ranked: string[], name: Name) => {
    const rank = ranked.indexOf(docs[name]);
    expect(rank, `${name} is among the hits`).toBeGreaterThanOrEqual(0);
    return rank;
  };

  describe('diacritics', () => {
    it('a query without diacritics finds text written with them', async () => {
      expect((await ranking('ho chi minh'))[0]).toBe(docs.saigonOffice);
    });

    it("a query without diacritics finds a word written with đ ('da nang' finds 'Đà Nẵng')", async () => {
      expect(new Set((await ranking('da nang')).slice(0, 2))).toEqual(
        new Set([docs.danangOffice, docs.danangWarehouse]),
      );
    });

    it("a query with diacritics finds text written without them ('Đà Nẵng' finds 'da nang')", async () => {
      expect(new Set((await ranking('Đà Nẵng')).slice(0, 2))).toEqual(
        new Set([docs.danangOffice, docs.danangWarehouse]),
      );
    });

    it('a query without diacritics finds both words that fold to it', async () => {
      expect(new Set((await ranking('ban do')).slice(0, 2))).toEqual(
        new Set([docs.officeMap, docs.usedGoodsSale]),
      );
    });

    it('an exact diacritic match ranks above a word that only folds to the same letters', async () => {
      expect((await ranking('bản đồ'))[0]).toBe(docs.officeMap);
      expect((await ranking('bán đồ'))[0]).toBe(docs.usedGoodsSale);
    });
  });

  describe('Unicode normalization', () => {
    it('a composed query finds a document pushed decomposed, and the text returned is composed', async () => {
      const [best] = await hitsFor('nghỉ phép');
      expect(best!.docId).toBe(docs.leaveDecomposed);
      expect(best!.text).toBe(best!.text.normalize('NFC'));
      expect(best!.text).toContain('nghỉ phép mười hai ngày');
      expect(best!.title).toBe('Quy định nghỉ phép');
      expect(best!.headingPath).toBe('Quy định nghỉ phép');
    });

    it('a decomposed query finds a document pushed composed', async () => {
      const [best] = await hitsFor('bảo dưỡng định kỳ'.normalize('NFD'));
      expect(best!.docId).toBe(docs.vehicleService);
      expect(best!.text).toBe(best!.text.normalize('NFC'));
    });
  });

  describe('phrases', () => {
    it("the syllables of a word in order rank above the same syllables scattered ('bảo hiểm xã hội')", async () => {
      const ranked = await ranking('bảo hiểm xã hội');
      expect(rankOf(ranked, 'socialInsurance')).toBeLessThan(rankOf(ranked, 'scatteredSyllables'));
      expect(ranked[0]).toBe(docs.socialInsurance);
    });

    it("the same holds for the query without diacritics ('bao hiem xa hoi')", async () => {
      const ranked = await ranking('bao hiem xa hoi');
      expect(rankOf(ranked, 'socialInsurance')).toBeLessThan(rankOf(ranked, 'scatteredSyllables'));
      expect(ranked[0]).toBe(docs.socialInsurance);
    });
  });

  describe('English word forms', () => {
    it("'invoicing' finds a document that only says 'invoices' and 'invoiced'", async () => {
      expect((await ranking('invoicing'))[0]).toBe(docs.billing);
    });

    it("'policies' finds a document that only says 'policy'", async () => {
      expect((await ranking('policies'))[0]).toBe(docs.remoteWork);
    });
  });
});
