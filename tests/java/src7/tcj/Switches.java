package tcj;

/** tableswitch, lookupswitch (sparse, negative keys), string and enum switches, labels. */
public class Switches {
    enum Color { RED, GREEN, BLUE }

    static int dense(int x) {
        switch (x) {
            case 0: return 10;
            case 1: return 11;
            case 2: return 12;
            case 3: return 13;
            case 4: return 14;
            case 5: return 15;
            default: return -1;
        }
    }

    static int sparse(int x) {
        switch (x) {
            case -1000000: return 1;
            case -7: return 2;
            case 0: return 3;
            case 99: return 4;
            case 65536: return 5;
            case Integer.MAX_VALUE: return 6;
            default: return 0;
        }
    }

    static int chars(char c) {
        int n = 0;
        switch (c) {
            case 'a': n++;
            case 'b': n++; break;
            case 'z': n += 26; break;
            default:
        }
        return n;
    }

    static String strings(String s) {
        switch (s) {
            case "alpha": return "A";
            case "beta": return "B";
            case "Aa": return "hash collision 1";
            case "BB": return "hash collision 2";
            default: return "?";
        }
    }

    static int colors(Color c) {
        switch (c) {
            case RED: return 1;
            case GREEN: return 2;
            default: return 3;
        }
    }

    static int labels(int[][] grid) {
        int found = 0;
        outer:
        for (int i = 0; i < grid.length; i++) {
            for (int j = 0; j < grid[i].length; j++) {
                switch (grid[i][j]) {
                    case 0: continue;
                    case 1: found++; break;
                    case 2: continue outer;
                    case 3: break outer;
                    default: found += grid[i][j];
                }
            }
        }
        return found;
    }

    static long nested(int a, int b) {
        long r = 0;
        switch (a) {
            case 1:
                switch (b) {
                    case 10: r = 110; break;
                    case 20: r = 120; break;
                    default: r = 100;
                }
                break;
            case 2:
                r = b * 2L;
                break;
            default:
                r = -1;
        }
        return r;
    }
}
