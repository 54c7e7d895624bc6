//! `/regles`: the rules of the three games (what they share, what differs,
//! the notation, diagrams drawn on the server), eight strategy tips and the
//! questions players ask.

use crate::app::describe::{preset_name, rule_lines};
use crate::app::diagram::{self, Diagram};
use crate::engine::Preset;
use leptos::prelude::*;
use leptos_meta::Title;

#[component]
pub fn RulesPage() -> impl IntoView {
    view! {
        <Title text="Règles — Dames"/>
        <article class="text-page rules">
            <h1>"Les règles des dames"</h1>
            <p>
                "On joue ici trois jeux : les dames internationales (règles de la Fédération mondiale, FMJD, sur 10 × 10), "
                "les dames anglaises et les dames russes (sur 8 × 8), ainsi que les dames brésiliennes (les règles "
                "internationales sur 8 × 8) et toute variante que vous composez. Le défi du jour se joue aux dames internationales."
            </p>

            <h2 id="commun">"Ce qui est commun"</h2>
            <ul>
                <li>"On joue sur les cases foncées ; chaque joueur a une case foncée dans le coin en bas à gauche."</li>
                <li>"Un pion avance d'une case en diagonale vers le camp adverse ; il prend en sautant une pièce adverse voisine."</li>
                <li>"La prise est obligatoire. Une rafle commencée se joue jusqu'au bout : tant que la pièce peut encore prendre, elle doit continuer."</li>
                <li>"Les pièces sautées ne sont retirées qu'à la fin du coup, et aucune n'est sautée deux fois."</li>
                <li>"Un pion qui atteint la dernière rangée devient une dame."</li>
                <li>"Un camp qui n'a plus de pièce ou plus de coup possible a perdu. La même position revenue trois fois (même camp au trait) : partie nulle, sauf au défi du jour et aux dames électroniques, qui ont leurs propres règles de nulle."</li>
            </ul>

            <h2 id="differences">"Ce qui change d'un jeu à l'autre"</h2>
            <CompareTable/>

            <h2 id="notation">"La notation"</h2>
            <p>
                "Les cases foncées sont numérotées de 1 (chez les noirs, en haut) à 32 ou 50 (chez les blancs, en bas), "
                "de gauche à droite. Un déplacement s'écrit « 32-28 », une prise « 19x30 »."
            </p>
            <div class="diagrams">
                <Diagram example=&diagram::NUMBERS_TEN numbers=true/>
                <Diagram example=&diagram::NUMBERS_EIGHT numbers=true/>
            </div>

            <h2 id="depart">"Le départ"</h2>
            <div class="diagrams">
                <Diagram example=&diagram::START_TEN/>
                <Diagram example=&diagram::START_EIGHT/>
            </div>
            <p>
                "Aux dames internationales, chaque camp a 20 pions sur les quatre premières rangées ; sur 8 × 8, 12 pions sur trois rangées. "
                "Les blancs commencent, sauf aux dames anglaises où ce sont les noirs."
            </p>

            <h2 id="internationales">"Les dames internationales en détail"</h2>

            <h2 id="pion">"Le pion"</h2>
            <p>
                "Un pion avance d'une case en diagonale, vers le camp adverse, sur une case libre. "
                "Il prend en sautant par-dessus une pièce adverse voisine pour retomber sur la case libre juste derrière ; "
                "pour prendre, il peut aller en avant comme en arrière."
            </p>

            <h2 id="prise">"La prise est obligatoire, et la majorité aussi"</h2>
            <p>
                "Si vous pouvez prendre, vous devez prendre. Si plusieurs prises sont possibles, "
                "vous devez choisir celle qui enlève le plus de pièces ; une dame compte pour une seule pièce. "
                "À nombre égal, vous choisissez librement."
            </p>

            <div class="diagrams">
                <Diagram example=&diagram::MAJORITY/>
                <Diagram example=&diagram::RAFLE/>
                <Diagram example=&diagram::FLYING_KING/>
            </div>

            <h2 id="rafle">"La rafle"</h2>
            <p>
                "Après un saut, si la pièce peut encore prendre depuis sa case d'arrivée, elle continue : c'est une rafle. "
                "Les pièces sautées restent sur le damier jusqu'à la fin de la rafle : on ne peut pas sauter deux fois la même, "
                "et elles peuvent barrer le chemin. Elles ne sont retirées qu'une fois le coup terminé."
            </p>

            <h2 id="promotion">"La promotion"</h2>
            <p>
                "Un pion qui termine son coup sur la dernière rangée devient une dame. "
                "S'il ne fait qu'y passer pendant une rafle et en repart, il reste un pion."
            </p>

            <h2 id="dame">"La dame"</h2>
            <p>
                "La dame se déplace d'autant de cases libres qu'elle veut sur une diagonale, en avant comme en arrière. "
                "Elle prend à distance : une pièce adverse sur sa diagonale, avec des cases libres entre elles et au moins une derrière. "
                "Elle se pose sur n'importe quelle case libre derrière la pièce prise, sauf si la règle de la majorité "
                "l'oblige à se poser là où elle peut continuer à prendre."
            </p>

            <h2 id="en-passant">"Le pion qui touche la dernière rangée pendant une rafle"</h2>
            <div class="diagrams">
                <Diagram example=&diagram::IN_PASSING_INTERNATIONAL/>
                <Diagram example=&diagram::IN_PASSING_ENGLISH/>
                <Diagram example=&diagram::IN_PASSING_RUSSIAN/>
            </div>

            <h2 id="fin">"La fin de la partie"</h2>
            <ul>
                <li>"Un camp qui n'a plus de pièce, ou plus aucun coup possible, a perdu."</li>
                <li>"Partie nulle après un nombre de coups de chaque côté sans prise ni mouvement de pion : 25 aux dames internationales et brésiliennes, 40 aux anglaises, 15 aux russes."</li>
                <li>"Partie nulle quand la même position revient pour la troisième fois, avec le même camp au trait."</li>
                <li>"Au défi du jour, les règles restent celles de toujours : nulle après 25 coups de chaque côté où seules des dames ont bougé, ou quand chaque camp a joué plus de 150 coups ; pas de règle de répétition."</li>
                <li>"À deux, vous pouvez convenir de la nulle : l'un la propose, l'autre l'accepte ou la refuse."</li>
                <li>"Vous pouvez abandonner à tout moment : la partie est alors perdue."</li>
            </ul>

            <h2 id="score">"Le score"</h2>
            <p>
                "Seule une victoire rapporte des points : 3000, plus 300 par pièce qui vous reste (pion ou dame), "
                "moins 1 point par seconde de jeu, sans descendre sous zéro. "
                "Le chronomètre part quand le damier s'affiche et s'arrête quand l'onglet est caché ; "
                "chaque coup compte au moins 0,3 seconde. Par exemple, gagner avec 6 pièces en 15 minutes donne 3900 points."
            </p>

            <h2 id="jouer">"Jouer sur ce site"</h2>
            <ul>
                <li>"Touchez (ou cliquez) une de vos pièces, puis sa case d'arrivée. Les pièces qui peuvent jouer sont marquées ; "
                    "quand une prise est obligatoire, seules celles qui peuvent prendre sont entourées."</li>
                <li>"Vous pouvez aussi faire glisser la pièce jusqu'à sa case."</li>
                <li>"Pour une rafle, touchez directement la case finale quand un seul chemin y mène (elle est marquée d'un cercle en pointillés). "
                    "Sinon, touchez les cases d'arrivée une à une : les pièces déjà sautées restent visibles, en transparence, jusqu'à la fin."</li>
                <li>"Au clavier : Tab pour atteindre le damier, les flèches pour se déplacer, Entrée pour choisir la pièce puis la case, Échap pour annuler."</li>
                <li>"Vous pouvez aussi taper le coup en notation, par exemple 32-28 ou 19x30."</li>
                <li>"Le dernier coup de l'ordinateur reste surligné : sa case de départ, chaque case d'arrivée et les pièces prises."</li>
            </ul>

            <h2 id="conseils">"Huit conseils de stratégie"</h2>
            <ol class="tips">
                <li><strong>"Tenez le centre. "</strong>"Les cases 22 à 24 et 27 à 29 donnent accès aux deux ailes ; un pion au centre gêne tout le jeu adverse."</li>
                <li><strong>"Restez groupé. "</strong>"Un pion soutenu par un autre derrière lui ne peut pas être pris de face. Les pions isolés sont des cibles."</li>
                <li><strong>"Gardez votre base. "</strong>"Les cases 47, 48 et 49 empêchent longtemps l'adversaire d'aller à dame ; ne les videz pas trop tôt."</li>
                <li><strong>"Comptez avant de jouer. "</strong>"La prise étant obligatoire, chaque coup peut offrir une rafle à l'adversaire : regardez toujours ce qu'il sera forcé de prendre, et ce qu'il pourra prendre ensuite."</li>
                <li><strong>"Utilisez la prise forcée. "</strong>"Donner un pion oblige l'adversaire à le prendre, et peut l'amener là où vous prenez deux ou trois pièces : c'est le « coup » des damistes."</li>
                <li><strong>"Gardez des temps de réserve. "</strong>"En fin de partie, celui qui manque de coups tranquilles doit s'avancer et s'affaiblir. Ne dépensez pas tous vos coups d'attente."</li>
                <li><strong>"Visez la dame. "</strong>"Une dame vaut environ trois pions. Une percée qui va à dame décide souvent la partie."</li>
                <li><strong>"Simplifiez quand vous menez. "</strong>"Avec un pion d'avance, échangez : moins il reste de pièces, plus l'avantage pèse. Mais attention, une dame seule contre trois dames ne se gagne pas."</li>
            </ol>

            <h2 id="faq">"Questions fréquentes"</h2>
            <dl class="faq">
                <dt>"Pourquoi ne puis-je pas jouer la pièce que je veux ?"</dt>
                <dd>"Une prise est sans doute obligatoire : seules les pièces qui peuvent prendre ont le droit de jouer (aux dames internationales et brésiliennes, seulement celles qui prennent le plus de pièces). Elles sont entourées."</dd>
                <dt>"Comment jouer une rafle sur un téléphone ?"</dt>
                <dd>"Touchez la pièce, puis la case finale. Si deux chemins différents y mènent en prenant d'autres pièces, touchez les cases d'arrivée une par une : le damier vous indique les cases possibles à chaque étape."</dd>
                <dt>"Mon pion est passé sur la dernière rangée sans devenir dame."</dt>
                <dd>"Aux dames internationales et brésiliennes, c'est la règle : un pion ne devient dame que s'il termine son coup sur la dernière rangée. Aux dames russes, il devient dame en passant et continue en dame ; aux anglaises, il devient dame et le coup s'arrête."</dd>
                <dt>"Qu'est-ce que le défi du jour ?"</dt>
                <dd>"Chaque jour (en temps universel), tout le monde affronte le même ordinateur : ses deux premiers coups sont tirés au sort à partir de la date, et il répond toujours pareil aux mêmes coups. Vous pouvez rejouer autant que vous voulez ; votre meilleur score du jour compte."</dd>
                <dt>"L'ordinateur triche-t-il ?"</dt>
                <dd>"Non. Il ne connaît que le damier et les règles, et cherche quelques coups à l'avance. Le serveur vérifie chaque coup, le vôtre comme le sien, et calcule lui-même le score."</dd>
                <dt>"Que se passe-t-il si je recharge la page ?"</dt>
                <dd>"La partie reprend où vous l'aviez laissée : le serveur l'a enregistrée."</dd>
                <dt>"Quels niveaux y a-t-il ?"</dt>
                <dd>"Débutant, Intermédiaire (celui du défi du jour) et Fort, contre l'ordinateur dans toutes les variantes ; les dames électroniques ont leur propre échelle, de 1 à 8 (le niveau 2 joue comme Débutant, le 4 comme Intermédiaire, le 8 comme Fort)."</dd>
            </dl>
        </article>
    }
}

/// The comparison of the four variants, one column each.
#[component]
fn CompareTable() -> impl IntoView {
    // Each variant's rules in words, as the game screen lists them.
    let columns: Vec<Vec<(&str, String)>> = Preset::ALL.iter().map(|p| rule_lines(&p.rules())).collect();
    view! {
        <div class="table-scroll">
            <table class="compare">
                <thead>
                    <tr>
                        <th scope="col">"Règle"</th>
                        {Preset::ALL.map(|p| view! { <th scope="col">{preset_name(p)}</th> }).into_iter().collect_view()}
                    </tr>
                </thead>
                <tbody>
                    {(0..columns[0].len()).map(|row| view! {
                        <tr>
                            <th scope="row">{columns[0][row].0}</th>
                            {columns.iter().map(|column| view! { <td>{column[row].1.clone()}</td> }).collect_view()}
                        </tr>
                    }).collect_view()}
                </tbody>
            </table>
        </div>
    }
}
